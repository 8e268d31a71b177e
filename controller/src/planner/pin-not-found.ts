/**
 * A set pinned to a revision it never recorded (spec/pinning.ts): RevisionPinned=False says which value and
 * how to fix it, and nothing else changes — no instance is created, replaced or rendered, as for a
 * missing class; only a pool above its ceiling comes down to it (§3.4, decide/scale/ceiling-hold.ts).
 */
import type { VirtualTargetClass } from 'virtual-exporters/internal';
import { parameterFindings } from './decide/gates';
import type { World } from './observe/world';
import type { Plan } from './plan-result';
import { planStandingStill } from './standing-still';

export function planPinNotFound(world: World, cls: VirtualTargetClass): Plan {
  // The spec and parameters are still checked: what they say holds once the pin is fixed or removed.
  const invalidParameters = parameterFindings(world, cls);
  return planStandingStill(world, invalidParameters !== undefined ? { invalidParameters } : {});
}
