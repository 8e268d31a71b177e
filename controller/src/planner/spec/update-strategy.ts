/**
 * The update strategy (`spec.updateStrategy`, after KubeVirt's VirtualMachinePool): how outdated
 * instances — built from an older template revision, or created before `recycleRequestedAt`
 * (requested-recycle.ts) — are replaced.
 *
 * - `Proactive` (the default, §3.14 rollout.ts): idle outdated instances are replaced gradually. Up to
 *   `maxSurge` replacements start ahead of the instances they replace (absent: the controller's
 *   `--rollout-surge-percent`, at least one); where no surge fits (at maxReplicas, or maxSurge 0) up to
 *   `maxUnavailable` outdated instances the rules still need leave first (absent: 1, one at a
 *   time at the ceiling), counting what is already leaving or starting. At the ceiling with
 *   `maxUnavailable: 0` the rollout waits (the Scaling condition keeps saying RollingOut).
 * - `Opportunistic`: nothing is replaced for being outdated; an outdated instance goes when it
 *   recycles or fails: its Pod ends (with InPlaceReuse it then leaves instead of getting a new Pod: recycle.ts).
 * - `Unmanaged`: never replaced for being outdated; InPlaceReuse reuses it as any other.
 */
import {
  isPlainObject,
  scaledCount,
  UPDATE_STRATEGY_TYPES,
  type ExporterSet,
  type IntOrPercent,
  type UpdateStrategyType,
} from 'virtual-exporters/internal';

/** The strategy as the planner reads it. */
export interface UpdatePolicy {
  readonly type: UpdateStrategyType;
  readonly maxSurge?: IntOrPercent;
  readonly maxUnavailable?: IntOrPercent;
}

/** Proactive with the controller's surge and one unavailable: a set that names no strategy. */
export const DEFAULT_UPDATE_POLICY: UpdatePolicy = { type: 'Proactive' };

/** The set's strategy; a value the CRD would refuse reads as absent (the spec checks report it). */
export function updatePolicyOf(set: ExporterSet): UpdatePolicy {
  const strategy: unknown = set.spec?.updateStrategy;
  if (!isPlainObject(strategy)) return DEFAULT_UPDATE_POLICY;
  const type = UPDATE_STRATEGY_TYPES.includes(strategy.type as UpdateStrategyType)
    ? (strategy.type as UpdateStrategyType)
    : 'Proactive';
  const valid = (v: unknown): v is IntOrPercent =>
    (typeof v === 'number' || typeof v === 'string') && scaledCount(v, 1, true) !== undefined;
  return {
    type,
    ...(valid(strategy.maxSurge) ? { maxSurge: strategy.maxSurge } : {}),
    ...(valid(strategy.maxUnavailable) ? { maxUnavailable: strategy.maxUnavailable } : {}),
  };
}

/** Replacements a Proactive rollout may start ahead in a pool of `poolSize` (see the module doc). */
export function surgeAllowance(policy: UpdatePolicy, poolSize: number, surgePercent: number): number {
  if (policy.type !== 'Proactive') return 0;
  if (policy.maxSurge === undefined) return Math.max(1, Math.ceil((surgePercent / 100) * poolSize));
  return scaledCount(policy.maxSurge, poolSize, true) ?? 0;
}

/**
 * Needed outdated instances a Proactive rollout may take out before their replacements are ready. When
 * both percentages round to 0 in a small pool, 1 (as Deployments do), so the rollout can go on.
 */
export function unavailableAllowance(policy: UpdatePolicy, poolSize: number, surgePercent: number): number {
  if (policy.type !== 'Proactive') return 0;
  if (policy.maxUnavailable === undefined) return 1;
  const count = scaledCount(policy.maxUnavailable, poolSize, false) ?? 0;
  return count === 0 && surgeAllowance(policy, poolSize, surgePercent) === 0 ? 1 : count;
}
