/**
 * Lease confirmation before deletes (SPEC §3.7): the planner saw no lease on an instance it deletes,
 * but its Lease cache may lag Jumpstarter, which can assign an instance until it has seen the disable.
 * So before the pass's Exporter deletes, one live Lease list is read; an instance a non-ended Lease
 * names is kept, and the Lease event brings the set back with the lease in its cache.
 */
import { ConditionReasons } from 'virtual-exporters/internal';
import { apiErrorMessage } from '../kube/api-errors';
import type { KubeClients } from '../kube/clients';
import { leasedExporterNames, type Action } from '../planner';
import type { ExecutionRecord } from './execution';

/** `actions` without the Exporter deletes a live Lease contradicts (all of them when none can be read). */
export async function confirmDeletes(
  actions: readonly Action[],
  clients: KubeClients,
  namespace: string,
  record: ExecutionRecord,
): Promise<readonly Action[]> {
  if (!actions.some((a) => a.type === 'DeleteExporter')) return actions;
  try {
    const leased = leasedExporterNames((await clients.leases.list(namespace)).items);
    return actions.filter((a) => a.type !== 'DeleteExporter' || !leased.has(a.name));
  } catch (error) {
    // Unconfirmed deletes wait for a later pass: a lost instance is worse than a late one.
    record.fail(ConditionReasons.FailedDelete, apiErrorMessage(error));
    return actions.filter((a) => a.type !== 'DeleteExporter');
  }
}
