/**
 * The built-in Kubernetes resources the test cluster serves: the kinds the controller, Jumpstarter and
 * the kubelet touch (SPEC §5). They have no admission here; the store still applies the generic rules
 * (names, labels, status isolation, generation). Core v1 events and events.k8s.io/v1 events are two
 * separate collections here (one storage on a real server). Secrets get what a real API server does to
 * them on every write: `stringData` is merged into `data` (base64) and never stored.
 */
import type { Admission, KubeObject, ResourceType } from './types';

/** Merges a Secret's write-only `stringData` into `data`, as the API server does on create and update. */
export const secretAdmission: Admission = {
  admit(object: KubeObject) {
    const { stringData, ...rest } = object as KubeObject & { stringData?: unknown; data?: unknown };
    if (stringData === undefined || stringData === null || typeof stringData !== 'object') {
      return { object: rest as KubeObject, causes: [] };
    }
    const data: Record<string, string> = { ...((rest.data as Record<string, string> | undefined) ?? {}) };
    for (const [key, value] of Object.entries(stringData as Record<string, unknown>)) {
      data[key] = Buffer.from(String(value), 'utf8').toString('base64');
    }
    return { object: { ...rest, data } as KubeObject, causes: [] };
  },
};

type Options = Partial<
  Pick<ResourceType, 'shortNames' | 'categories' | 'statusSubresource' | 'admission'>
> & {
  namespaced?: boolean;
};

function builtin(
  group: string,
  version: string,
  kind: string,
  plural: string,
  o: Options = {},
): ResourceType {
  return Object.freeze({
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: o.namespaced ?? true,
    statusSubresource: o.statusSubresource ?? false,
    ...(o.shortNames ? { shortNames: o.shortNames } : {}),
    ...(o.categories ? { categories: o.categories } : {}),
    ...(o.admission ? { admission: o.admission } : {}),
  });
}

const RBAC = 'rbac.authorization.k8s.io';

/** Every built-in resource type, in discovery order. */
export const BUILTIN_RESOURCES: readonly ResourceType[] = Object.freeze([
  builtin('', 'v1', 'Namespace', 'namespaces', {
    namespaced: false,
    statusSubresource: true,
    shortNames: ['ns'],
  }),
  builtin('', 'v1', 'Pod', 'pods', { statusSubresource: true, shortNames: ['po'], categories: ['all'] }),
  builtin('', 'v1', 'Secret', 'secrets', { admission: secretAdmission }),
  builtin('', 'v1', 'ConfigMap', 'configmaps', { shortNames: ['cm'] }),
  builtin('', 'v1', 'Event', 'events', { shortNames: ['ev'] }),
  builtin('', 'v1', 'ServiceAccount', 'serviceaccounts', { shortNames: ['sa'] }),
  builtin('coordination.k8s.io', 'v1', 'Lease', 'leases'),
  builtin('events.k8s.io', 'v1', 'Event', 'events', { shortNames: ['ev'] }),
  builtin(RBAC, 'v1', 'Role', 'roles'),
  builtin(RBAC, 'v1', 'RoleBinding', 'rolebindings'),
  builtin(RBAC, 'v1', 'ClusterRole', 'clusterroles', { namespaced: false }),
  builtin(RBAC, 'v1', 'ClusterRoleBinding', 'clusterrolebindings', { namespaced: false }),
]);
