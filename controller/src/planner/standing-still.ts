/**
 * The gate plans that change nothing but the status and the ceiling: a set whose class is missing
 * (§3.13: `Available=False/VirtualTargetClassNotFound`), and, through pin-not-found.ts, one pinned to a
 * revision it never recorded. Above `maxReplicas` such a set still comes down to it (§3.4).
 */
import { formatIssue, validateExporterSetReferences, type ExporterSet } from 'virtual-exporters/internal';
import { holdCeiling } from './decide/scale/ceiling-hold';
import type { World } from './observe/world';
import { finishPlan, type Plan } from './plan-result';
import { reasonsOf } from './status/outcome';
import { standingStillFacts, type PassFacts } from './status/pass-facts';

/** The missing class: its name, and the finding (field, value, fix) for our own conditions. */
function missingClass(set: ExporterSet): { readonly name: string; readonly finding: string } {
  const [issue] = validateExporterSetReferences(set, undefined, () => undefined);
  const name = set.spec?.virtualTargetClassName ?? '';
  return { name, finding: issue ? formatIssue(issue) : `VirtualTargetClass "${name}" was not found` };
}

/** A set whose class is missing: conditions say so, nothing else changes. */
export function planClassMissing(world: World): Plan {
  return planStandingStill(world, { classMissing: missingClass(world.set) });
}

/**
 * A pass that changes nothing but the status: no instance is created, replaced or rendered, and the
 * persisted fields stay as they are — except that a pool above its ceiling comes down to it (§3.4,
 * decide/scale/ceiling-hold.ts). `facts` says why (a missing class, an unknown pin).
 */
export function planStandingStill(
  world: World,
  facts: Pick<PassFacts, 'classMissing' | 'invalidParameters'>,
): Plan {
  const actions = holdCeiling(world);
  const still = standingStillFacts(world, facts);
  return finishPlan(
    world,
    actions,
    { ...still, scaling: { ...still.scaling, leaving: actions.length }, plannedWrites: reasonsOf(actions) },
    [],
    [],
  );
}
