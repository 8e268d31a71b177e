/**
 * The scale-in policy (`spec.scaleInStrategy`, after KubeVirt's VirtualMachinePool): the order in which
 * idle instances leave when the pool shrinks, below the rules no policy overrides (scale-down.ts
 * `compareVictims`: never a leased instance, outdated before current, standbys and never-ready ones
 * first, then offline ones). Within a tier, an instance matching an earlier selector goes before one
 * matching a later selector or none; the base policy orders the rest: `Newest` (the default: the last
 * created first, the higher ordinal on a tie), `Oldest`, or `Random` — a hash of the set's uid and the
 * instance name, so every controller replica and every pass computes the same order.
 */
import {
  isPlainObject,
  matchesSelector,
  SCALE_IN_BASE_POLICIES,
  type ExporterSet,
  type LabelSelector,
  type ScaleInBasePolicy,
} from 'virtual-exporters/internal';

/** The policy as the planner reads it. */
export interface ScaleInOrder {
  readonly selectors: readonly LabelSelector[];
  readonly basePolicy: ScaleInBasePolicy;
  /** The set's uid: the seed of `Random`. */
  readonly seed: string;
}

/** No selectors, newest first: a set that names no policy. */
export const DEFAULT_SCALE_IN_ORDER: ScaleInOrder = { selectors: [], basePolicy: 'Newest', seed: '' };

/** The set's policy; what the CRD would refuse reads as the default (the spec checks report it). */
export function scaleInOrderOf(set: ExporterSet): ScaleInOrder {
  const strategy: unknown = set.spec?.scaleInStrategy;
  if (!isPlainObject(strategy)) return { ...DEFAULT_SCALE_IN_ORDER, seed: set.metadata?.uid ?? '' };
  const base = strategy.basePolicy;
  const selectors = Array.isArray(strategy.selectors) ? (strategy.selectors as LabelSelector[]) : [];
  return {
    selectors,
    basePolicy: SCALE_IN_BASE_POLICIES.includes(base as ScaleInBasePolicy)
      ? (base as ScaleInBasePolicy)
      : 'Newest',
    seed: set.metadata?.uid ?? '',
  };
}

/** What the key is computed from. */
export interface ScaleInFacts {
  readonly name: string;
  /** Epoch ms (0 when unknown). */
  readonly createdAt: number;
  readonly ordinal?: number;
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * The instance's place in the policy's order within its tier, compared element by element (the smaller
 * goes first): the index of the first selector it matches (the selector count when none), then the
 * base policy's key.
 */
export function scaleInKey(order: ScaleInOrder, m: ScaleInFacts): readonly number[] {
  const found = order.selectors.findIndex((s) => matchesSelector(s, m.labels));
  const rank = found < 0 ? order.selectors.length : found;
  switch (order.basePolicy) {
    case 'Oldest':
      return [rank, m.createdAt, m.ordinal ?? Number.POSITIVE_INFINITY];
    case 'Random':
      return [rank, fnv1a(`${order.seed}/${m.name}`)];
    default:
      return [rank, -m.createdAt, -(m.ordinal ?? -1)];
  }
}

/** Element-wise comparison of two keys; equal infinities compare equal. */
export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** 32-bit FNV-1a: a stable, well-spread hash of text, the same on every platform. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
