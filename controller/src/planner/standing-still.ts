/**
 * The gate plans that change nothing but the status: a set whose class is missing (§3.13:
 * `Available=False/VirtualTargetClassNotFound`), and, through pin-not-found.ts, one pinned to a revision
 * it never recorded.
 */
import { formatIssue, validateExporterSetReferences, type ExporterSet } from 'virtual-exporters/internal';
import type { World } from './observe/world';
import { finishPlan, type Plan } from './plan-result';
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
 * A pass that changes nothing but the status: no instance is created, replaced or removed, and the
 * persisted fields stay as they are. `facts` says why (a missing class, an unknown pin).
 */
export function planStandingStill(
  world: World,
  facts: Pick<PassFacts, 'classMissing' | 'invalidParameters'>,
): Plan {
  return finishPlan(world, [], standingStillFacts(world, facts), [], []);
}
