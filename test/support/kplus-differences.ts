/**
 * What the cdk8s ExporterSetController writes beyond the framework-neutral installer objects
 * (lib/manifests, which the Pulumi component applies unchanged), now that its ServiceAccount, roles,
 * bindings and Deployments are cdk8s-plus-28 constructs. Every difference is named here, with the
 * reason it is there; test/cdk8s/exporter-set-controller-kplus.test.ts checks that the synthesized
 * objects differ from the neutral ones by exactly these, field by field.
 */
import { expect } from '@jest/globals';

type Manifest = Record<string, any>;

export type DifferenceGroup =
  /** A setting that makes the installation safer than leaving the field out. */
  | 'safer'
  /** What Kubernetes assumes when the field is absent, written out: nothing changes in the cluster. */
  | 'kubernetes-default'
  /** cdk8s-plus's own bookkeeping. */
  | 'cdk8s-plus';

export interface NamedDifference {
  readonly name: string;
  readonly group: DifferenceGroup;
  readonly why: string;
  readonly kind: string;
  /** The field, from the object's root; `rules[]` means every rule. */
  readonly path: string;
  /** The value written (an asymmetric matcher where it depends on the construct path). */
  readonly value: unknown;
}

export const CDK8S_PLUS_DIFFERENCES: readonly NamedDifference[] = [
  {
    name: 'the ServiceAccount does not mount its token by default',
    group: 'safer',
    why: 'cdk8s-plus turns token mounting off on the account, so only Pods that ask for the token get it',
    kind: 'ServiceAccount',
    path: 'automountServiceAccountToken',
    value: false,
  },
  {
    name: "the controller's Pods mount their token",
    group: 'safer',
    why: 'the controller talks to the API server; with the account not mounting it, the Pod asks for it by name (today it got it by default)',
    kind: 'Deployment',
    path: 'spec.template.spec.automountServiceAccountToken',
    value: true,
  },
  {
    name: 'the container is not privileged',
    group: 'safer',
    why: 'cdk8s-plus writes privileged: false on every container; the Pod Security "restricted" profile requires it unset or false',
    kind: 'Deployment',
    path: 'spec.template.spec.containers[0].securityContext.privileged',
    value: false,
  },
  {
    name: "the Pod does not use the node's network",
    group: 'safer',
    why: 'cdk8s-plus writes hostNetwork: false; "restricted" requires it unset or false',
    kind: 'Deployment',
    path: 'spec.template.spec.hostNetwork',
    value: false,
  },
  {
    name: "the Pod template carries cdk8s-plus's address label",
    group: 'cdk8s-plus',
    why: 'cdk8s-plus selects the Pods of a workload by it (a kplus.NetworkPolicy on controller.deployment, Pod affinity); the Deployment selector is unchanged, as it must be',
    kind: 'Deployment',
    path: 'spec.template.metadata.labels.cdk8s.io/metadata.addr',
    // The Deployment's name and the hash of its construct path (the same through the jsii facade).
    value: expect.stringMatching(/^exporter-set-controller-[a-z0-9-]+-[0-9a-f]{8}$/),
  },
  {
    name: 'minReadySeconds is 0',
    group: 'kubernetes-default',
    why: "the Deployment API's default",
    kind: 'Deployment',
    path: 'spec.minReadySeconds',
    value: 0,
  },
  {
    name: 'progressDeadlineSeconds is 600',
    group: 'kubernetes-default',
    why: "the Deployment API's default",
    kind: 'Deployment',
    path: 'spec.progressDeadlineSeconds',
    value: 600,
  },
  {
    name: 'the rollout strategy is RollingUpdate with 25% surge and 25% unavailable',
    group: 'kubernetes-default',
    why: "the Deployment API's default",
    kind: 'Deployment',
    path: 'spec.strategy',
    value: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  },
  {
    name: 'restartPolicy is Always',
    group: 'kubernetes-default',
    why: "the Pod API's default, and the only value a Deployment allows",
    kind: 'Deployment',
    path: 'spec.template.spec.restartPolicy',
    value: 'Always',
  },
  {
    name: 'dnsPolicy is ClusterFirst',
    group: 'kubernetes-default',
    why: "the Pod API's default",
    kind: 'Deployment',
    path: 'spec.template.spec.dnsPolicy',
    value: 'ClusterFirst',
  },
  {
    name: 'setHostnameAsFQDN is false',
    group: 'kubernetes-default',
    why: 'what an absent field means',
    kind: 'Deployment',
    path: 'spec.template.spec.setHostnameAsFQDN',
    value: false,
  },
  {
    name: 'fsGroupChangePolicy is Always',
    group: 'kubernetes-default',
    why: 'what an absent field means (and without an fsGroup nothing is changed anyway)',
    kind: 'Deployment',
    path: 'spec.template.spec.securityContext.fsGroupChangePolicy',
    value: 'Always',
  },
  {
    name: 'a ClusterRole rule lists no resource names',
    group: 'kubernetes-default',
    why: 'cdk8s-plus writes resourceNames: [] on ClusterRole rules; an empty list, like an absent one, means every name',
    kind: 'ClusterRole',
    path: 'rules[].resourceNames',
    value: [],
  },
  {
    name: 'a ServiceAccount subject names the core API group',
    group: 'kubernetes-default',
    why: 'cdk8s-plus writes apiGroup: "" on the subject; "" is what Kubernetes assumes for a ServiceAccount subject',
    kind: '*Binding',
    path: 'subjects[].apiGroup',
    value: '',
  },
];

const applies = (difference: NamedDifference, kind: string) =>
  difference.kind.startsWith('*') ? kind.endsWith(difference.kind.slice(1)) : kind === difference.kind;

/** The field paths of `path` in `obj`: `rules[]` expands to each index. */
function expand(obj: Manifest, path: string): string[] {
  const at = path.indexOf('[]');
  if (at < 0) return [path];
  const list = get(obj, path.slice(0, at)) as unknown[] | undefined;
  return (list ?? []).flatMap((_, i) => expand(obj, `${path.slice(0, at)}[${i}]${path.slice(at + 2)}`));
}

function segments(path: string): string[] {
  // Label keys hold dots and slashes: `labels.` takes the rest of the path as one key.
  const label = path.indexOf('labels.');
  const head = label < 0 ? path : path.slice(0, label + 'labels'.length);
  const parts = head.split('.').flatMap((p) => p.split(/\[(\d+)\]/).filter((x) => x !== ''));
  return label < 0 ? parts : [...parts, path.slice(label + 'labels.'.length)];
}

function get(obj: unknown, path: string): unknown {
  return segments(path).reduce<any>((o, key) => (o === undefined ? undefined : o[key]), obj);
}

function set(obj: Manifest, path: string, value: unknown): void {
  const keys = segments(path);
  let o: any = obj;
  for (const key of keys.slice(0, -1)) o = o[key] ??= {};
  o[keys[keys.length - 1]] = value;
}

/** The neutral objects as the cdk8s construct writes them: each named difference applied. */
export function withCdk8sPlusSettings(objects: readonly Manifest[]): Manifest[] {
  return objects.map((original) => {
    const obj = structuredClone(original);
    for (const difference of CDK8S_PLUS_DIFFERENCES) {
      if (!applies(difference, obj.kind)) continue;
      for (const path of expand(obj, difference.path)) set(obj, path, difference.value);
    }
    return obj;
  });
}

/** Every leaf where `after` differs from `before`, as `Kind/name path`, in a fixed order. */
export function fieldDifferences(before: readonly Manifest[], after: readonly Manifest[]): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, where: string, path: string) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const objects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object';
    if (objects && Array.isArray(a) === Array.isArray(b) && !(Array.isArray(a) && a.length === 0)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) {
        const next = Array.isArray(a) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
        walk((a as any)[key], (b as any)[key], where, next);
      }
      return;
    }
    out.push(`${where} ${path}`);
  };
  const key = (o: Manifest) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
  const afterByKey = new Map(after.map((o) => [key(o), o]));
  for (const b of before) walk(b, afterByKey.get(key(b)), key(b), '');
  for (const a of after) if (!before.some((b) => key(b) === key(a))) out.push(`${key(a)} (added)`);
  return out;
}

/** The fields the named differences touch in `objects`, as {@link fieldDifferences} names them. */
export function namedFields(objects: readonly Manifest[]): string[] {
  const key = (o: Manifest) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
  return objects.flatMap((obj) =>
    CDK8S_PLUS_DIFFERENCES.filter((d) => applies(d, obj.kind)).flatMap((d) =>
      expand(obj, d.path).map((path) => `${key(obj)} ${path}`),
    ),
  );
}
