/**
 * The built-in Kubernetes resources the test cluster serves: the kinds the controller, Jumpstarter and
 * the kubelet touch (SPEC §5). They have no admission here; the store still applies the generic rules
 * (names, labels, status isolation, generation). Core v1 events and events.k8s.io/v1 events are two
 * separate collections here (one storage on a real server). Secrets get what a real API server does to
 * them on every write: `stringData` is merged into `data` (base64) and never stored.
 */
import { badRequest } from './api-errors';
import type { Admission, KubeObject, ResourceType } from './types';

const BASE64_CHARACTER = /[A-Za-z0-9+/]/;

/**
 * Where Go's `encoding/json` stops reading `text` as the standard, padded base64 of a `[]byte`
 * (`data` of a Secret), or undefined when it decodes. Go skips CR and LF.
 */
export function base64ErrorOffset(text: string): number | undefined {
  let quantum = 0; // characters read of the current group of four
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' || c === '\n') continue;
    if (c === '=') {
      // Padding only completes a group of which two or three characters were read.
      if (quantum < 2 || quantum + padding >= 4) return i;
      padding++;
      continue;
    }
    if (padding > 0 || !BASE64_CHARACTER.test(c)) return i;
    quantum = (quantum + 1) % 4;
  }
  if (padding > 0) return quantum + padding === 4 ? undefined : text.length;
  return quantum === 0 ? undefined : text.length - quantum;
}

/**
 * A Secret's `data` as the API server decodes it: every value a string of standard base64, or the
 * request is refused with 400 before admission, as kube-apiserver words it.
 */
function checkSecretData(data: unknown): void {
  if (data === undefined || data === null) return;
  const refuse = (why: string) => badRequest(`Secret in version "v1" cannot be handled as a Secret: ${why}`);
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw refuse(
      `json: cannot unmarshal ${Array.isArray(data) ? 'array' : typeof data} into Go struct field Secret.data of type map[string][]uint8`,
    );
  }
  for (const value of Object.values(data as Record<string, unknown>)) {
    if (value === null) continue;
    if (typeof value !== 'string') {
      throw refuse(
        `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field Secret.data of type []uint8`,
      );
    }
    const offset = base64ErrorOffset(value);
    if (offset !== undefined) throw refuse(`illegal base64 data at input byte ${offset}`);
  }
}

/**
 * Merges a Secret's write-only `stringData` into `data`, as the API server does on create and update,
 * after refusing `data` that is not base64 (400, as the API server's decoder does).
 */
export const secretAdmission: Admission = {
  admit(object: KubeObject) {
    const { stringData, ...rest } = object as KubeObject & { stringData?: unknown; data?: unknown };
    checkSecretData(rest.data);
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
