/**
 * An operation over a set's instances (`spec.exporterSetName` and a selector): it chooses its instances
 * once (targets.ts), creates one child operation per instance (children.ts) and reports their results
 * (results.ts).
 */
import { OperationReasons as R, selectorToString } from 'virtual-exporters/internal';
import { failed, type Outcome } from '../outcome';
import type { OperationSnapshot } from '../snapshot';
import { childResults } from './children';
import { selectorOutcome } from './results';
import { chosenTargets } from './targets';

export function decideSelector(s: OperationSnapshot, setName: string, start: number): Outcome {
  const op = s.operation;
  const ns = op.metadata?.namespace ?? '';
  if (s.set === undefined && op.status?.instances === undefined) {
    return failed(
      R.ExporterSetNotFound,
      `ExporterSet ${setName} not found in namespace ${ns}; name an existing set (kubectl get exportersets -n ${ns})`,
      [],
    );
  }
  const targets = chosenTargets(s);
  if (targets.length === 0) {
    return failed(
      R.NoInstancesSelected,
      `the selector ${JSON.stringify(selectorToString(op.spec.selector ?? {}))} picks no instance of ExporterSet ${setName} (${(s.instances ?? []).length} instances)`,
      [],
    );
  }
  return selectorOutcome(childResults(s, targets, start));
}
