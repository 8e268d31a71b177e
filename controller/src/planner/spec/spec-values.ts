/**
 * The spec with defaults applied: the values every rule reads, each read once per pass from the wire
 * (a value the CRD would refuse reads as its default; the spec checks report it: spec-checks.ts).
 */
import {
  Defaults,
  parseDuration,
  tryParseDuration,
  type ExporterSet,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { count } from '../model/wire-guards';
import { isPaused } from './off-switch';
import { recycleRequestOf, type RecycleRequest } from './requested-recycle';
import { scaleInOrderOf, type ScaleInOrder } from './scale-in-order';
import { updatePolicyOf, type UpdatePolicy } from './update-strategy';

/** The spec with defaults applied. */
export interface SpecValues {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly minAvailable: number;
  readonly cooldownMs: number;
  readonly inPlaceReuse: boolean;
  readonly waitForFirstConsumer: boolean;
  readonly retain: boolean;
  /** §3.20: nothing is created or promoted. */
  readonly paused: boolean;
  /** The scale-in order (scale-in-order.ts). */
  readonly scaleIn: ScaleInOrder;
  /** How outdated instances are replaced (update-strategy.ts). */
  readonly update: UpdatePolicy;
  /** The requested recycle (requested-recycle.ts), if the spec names a time. */
  readonly recycle?: RecycleRequest;
}

/** The values of the set's spec and of its class's binding mode and reclaim policy. */
export function specValues(set: ExporterSet, cls: VirtualTargetClass | undefined): SpecValues {
  const spec = set.spec ?? ({} as ExporterSet['spec']);
  const recycle = recycleRequestOf(set);
  return {
    minReplicas: count(spec.minReplicas, Defaults.minReplicas),
    maxReplicas: count(spec.maxReplicas, Defaults.maxReplicas),
    minAvailable: count(spec.minAvailableReplicas, Defaults.minAvailableReplicas),
    cooldownMs:
      tryParseDuration(spec.scaleDownCooldown ?? Defaults.scaleDownCooldown) ??
      parseDuration(Defaults.scaleDownCooldown),
    inPlaceReuse: spec.recycleStrategy === 'InPlaceReuse',
    waitForFirstConsumer: cls?.spec?.bindingMode === 'WaitForFirstConsumer',
    retain: cls?.spec?.reclaimPolicy === 'Retain',
    paused: isPaused(set),
    scaleIn: scaleInOrderOf(set),
    update: updatePolicyOf(set),
    ...(recycle !== undefined ? { recycle } : {}),
  };
}
