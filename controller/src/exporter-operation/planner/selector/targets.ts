/**
 * A selector operation chooses its instances once: on its first pass, the set's instances whose labels
 * match (none being deleted), by name; from then on the ones recorded in its status.
 */
import { matchesSelector, type OperationInstanceResult } from 'virtual-exporters/internal';
import { childOperationName } from '../child-operation';
import type { OperationSnapshot } from '../snapshot';

export function chosenTargets(s: OperationSnapshot): readonly OperationInstanceResult[] {
  const op = s.operation;
  const recorded = op.status?.instances;
  if (recorded !== undefined) return recorded;
  const selector = op.spec.selector ?? {};
  const parentName = op.metadata?.name ?? '';
  return (s.instances ?? [])
    .map((t) => t.exporter)
    .filter(
      (e) =>
        e.metadata?.deletionTimestamp === undefined && matchesSelector(selector, e.metadata?.labels ?? {}),
    )
    .map((e) => e.metadata?.name ?? '')
    .sort()
    .map((name) => {
      const uid = (s.instances ?? []).find((t) => t.exporter.metadata?.name === name)?.exporter.metadata?.uid;
      return {
        exporterName: name,
        ...(uid !== undefined ? { uid } : {}),
        operationName: childOperationName(parentName, name),
        state: 'Pending' as const,
      };
    });
}
