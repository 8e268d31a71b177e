import { GROUP, JUMPSTARTER_GROUP, Plurals } from '../api';

/** One RBAC PolicyRule, with the reason the controller needs it (kept out of the manifest). */
export interface ControllerRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly why: string;
}

/**
 * Everything the controller does in a watched namespace, and nothing more: only the verbs it uses.
 * A test of the controller checks this list against the requests it really makes; when the two
 * disagree, fix whichever side is wrong.
 */
export const CONTROLLER_RULES: readonly ControllerRule[] = [
  {
    apiGroups: [GROUP],
    resources: [Plurals.ExporterSet],
    verbs: ['list', 'watch', 'patch'],
    why: 'informer on sets; patch adds and removes the drain finalizer',
  },
  {
    apiGroups: [GROUP],
    resources: [`${Plurals.ExporterSet}/status`],
    verbs: ['patch'],
    why: 'status is written through the /status subresource only',
  },
  {
    apiGroups: [GROUP],
    resources: [`${Plurals.ExporterSet}/finalizers`],
    verbs: ['update'],
    why: 'Exporters carry blockOwnerDeletion owner references to their set',
  },
  {
    apiGroups: [GROUP],
    resources: [Plurals.VirtualTargetClass],
    verbs: ['list', 'watch'],
    why: 'informer on classes: provisioner, parameters, scheduling',
  },
  {
    apiGroups: [JUMPSTARTER_GROUP],
    resources: [Plurals.Exporter],
    verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
    why: 'instances: create (get: whose is a name a create found taken), disable before scale-down (spec.enabled=false), label adopted ones, delete',
  },
  {
    apiGroups: [JUMPSTARTER_GROUP],
    resources: [`${Plurals.Exporter}/finalizers`],
    verbs: ['update'],
    why: 'Pods and config Secrets carry blockOwnerDeletion owner references to their Exporter',
  },
  {
    apiGroups: [JUMPSTARTER_GROUP],
    resources: [Plurals.Lease],
    verbs: ['list', 'watch'],
    why: 'demand and which instances are leased (a live list confirms each delete); never written',
  },
  {
    apiGroups: [''],
    resources: ['pods'],
    verbs: ['list', 'watch', 'create', 'patch', 'delete'],
    why: 'instance Pods: create, replace failed ones, label the Pods of adopted instances',
  },
  {
    apiGroups: [''],
    resources: ['secrets'],
    verbs: ['list', 'watch', 'create', 'patch'],
    why: "caches exporter credentials (kept: Exporter-owned only); writes per-instance config Secrets, and a lifecycle provisioner's trusted host keys <credentials>-known-hosts",
  },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions'],
    verbs: ['list', 'watch', 'create', 'delete'],
    why: "the sets' recorded revisions: record (never update: they are immutable), prune beyond the history limit",
  },
  {
    apiGroups: [''],
    resources: ['configmaps'],
    verbs: ['get', 'create', 'patch'],
    why: "CA bundle for the exporter config (get); each set's demand history <set>-demand (get at start, create, patch; owned by the set, never a credential)",
  },
  {
    apiGroups: [''],
    resources: ['events'],
    verbs: ['create'],
    why: 'Events on sets for scale actions and condition changes',
  },
  {
    apiGroups: [GROUP],
    resources: [Plurals.ExporterOperation],
    verbs: ['list', 'watch', 'create', 'delete'],
    why: 'informer on operations; create: one child operation per instance of a selector operation; delete: finished ones after ttlSecondsAfterFinished',
  },
  {
    apiGroups: [GROUP],
    resources: [`${Plurals.ExporterOperation}/status`],
    verbs: ['patch'],
    why: "an operation's progress is written through the /status subresource only",
  },
];

/**
 * What a provisioner with a lifecycle (off-cluster hosts, cloud APIs) adds: it reads its class's
 * credentials Secret (an SSH key, an API token) by name once a pass, and the trust Secret beside it
 * (`<credentials>-known-hosts`: host keys trusted on first use), which it writes with the `create` and
 * `patch` every installation has. Neither name is known when the Role is made (classes come later), so
 * `get` is not narrowed by resourceNames. In-cluster provisioners hand the Secret to the exporter
 * container by reference and never read it, so their controllers lack this.
 */
export const LIFECYCLE_RULES: readonly ControllerRule[] = [
  {
    apiGroups: [''],
    resources: ['secrets'],
    verbs: ['get'],
    why: "a lifecycle provisioner's class credentials Secret (SSH key, API token) and its <credentials>-known-hosts, read once a pass",
  },
];

/** The rules of a controller installation; `lifecycle` when one of its provisioners has a lifecycle. */
export function controllerRules(options: { readonly lifecycle: boolean }): readonly ControllerRule[] {
  return options.lifecycle ? [...CONTROLLER_RULES, ...LIFECYCLE_RULES] : CONTROLLER_RULES;
}

/** Leader election on a coordination.k8s.io Lease in the controller's own namespace. */
export const LEADER_ELECTION_RULES: readonly ControllerRule[] = [
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    verbs: ['get', 'create', 'update'],
    why: 'leader election (id exporter-set-controller-<provisioner>)',
  },
];

/** The rules as they appear in a Role or ClusterRole. */
export function toPolicyRules(
  rules: readonly ControllerRule[],
): { apiGroups: string[]; resources: string[]; verbs: string[] }[] {
  return rules.map((r) => ({
    apiGroups: [...r.apiGroups],
    resources: [...r.resources],
    verbs: [...r.verbs],
  }));
}
