/**
 * Raised warm buffers: a scheduled window or a forecast may ask for more than the spec's
 * `minAvailableReplicas` (and `minReplicas`) for a while. Every raise is a floor, never a cut: the
 * effective value is the maximum of the spec's and every active raise's, so a raise can only add
 * instances, and scale-in still waits for the spec's rules (cooldown, §3.6). The ceiling holds:
 * a raise is capped at `maxReplicas` (unless 0: no ceiling), as the static fields are.
 */
import type { SpecValues } from '../spec/spec-values';

/** Where a raise comes from. */
export type RaiseSource = 'schedule' | 'forecast';

/** One producer's ask for the warm buffer at this pass. */
export interface BufferRaise {
  readonly source: RaiseSource;
  /** The schedule's name, or `forecast`: named in status and events. */
  readonly name: string;
  readonly minAvailable: number;
  readonly minReplicas?: number;
}

/** The warm buffer this pass plans for, and which raises set it. */
export interface EffectiveBuffer {
  readonly minAvailable: number;
  readonly minReplicas: number;
  /** The raises that set a value above the spec's (ties: every raise that reaches the value). */
  readonly raisedBy: readonly BufferRaise[];
}

/** A count a raise asks for: finite, ≥ 0, floored; anything else asks for nothing. */
function asked(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** What a raise is measured against: the spec's floor, warm buffer and ceiling. */
export type BufferSpec = Pick<SpecValues, 'minAvailable' | 'minReplicas' | 'maxReplicas'>;

/** The spec's buffer raised by `raises` (maximum of all), capped at the ceiling. */
export function effectiveBuffer(spec: BufferSpec, raises: readonly BufferRaise[]): EffectiveBuffer {
  // maxReplicas 0 is no ceiling (upstream's meaning).
  const ceiling = spec.maxReplicas > 0 ? spec.maxReplicas : Number.POSITIVE_INFINITY;
  const cap = (n: number, base: number) => Math.max(base, Math.min(n, ceiling));
  const minAvailable = cap(Math.max(0, ...raises.map((r) => asked(r.minAvailable))), spec.minAvailable);
  const minReplicas = cap(Math.max(0, ...raises.map((r) => asked(r.minReplicas))), spec.minReplicas);
  const raisedBy = raises.filter(
    (r) =>
      (minAvailable > spec.minAvailable && asked(r.minAvailable) >= minAvailable) ||
      (minReplicas > spec.minReplicas && asked(r.minReplicas) >= minReplicas),
  );
  return { minAvailable, minReplicas, raisedBy };
}

/** `spec` with the effective buffer in place of the spec's own fields. */
export function raisedSpec(spec: SpecValues, buffer: EffectiveBuffer): SpecValues {
  return { ...spec, minAvailable: buffer.minAvailable, minReplicas: buffer.minReplicas };
}
