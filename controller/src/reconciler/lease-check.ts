/**
 * The live Lease list that confirms a pass's Exporter deletes (SPEC §3.7). The cache may lag
 * Jumpstarter, which can assign an instance until it has seen the disable, so right before the deletes
 * the Leases are listed and the pass planned again with them (`snapshot.leaseCheck`): no instance a live
 * lease names is deleted, and a failed list deletes nothing. The executor asks for it right before the
 * deletes, so the list is as fresh as it can be; a lease assigned after it shows on its Exporter
 * (`status.leaseRef`), which the delete's resourceVersion precondition catches (apply-action.ts).
 */
import { apiErrorMessage } from '../kube/api-errors';
import type { KubeClients } from '../kube/clients';
import { plan, type LeaseCheck, type Plan, type PlannerSnapshot } from '../planner';

/** The plan with its deletes confirmed: `first` itself when it deletes no Exporter. */
export async function withLeaseCheck(
  first: Plan,
  snapshot: PlannerSnapshot,
  clients: Pick<KubeClients, 'leases'>,
): Promise<Plan> {
  if (!first.actions.some((a) => a.type === 'DeleteExporter')) return first;
  let leaseCheck: LeaseCheck;
  try {
    leaseCheck = { leases: (await clients.leases.list(snapshot.set.metadata?.namespace ?? '')).items };
  } catch (error) {
    leaseCheck = { error: apiErrorMessage(error) };
  }
  return plan({ ...snapshot, leaseCheck });
}

/** `plan` with none of its Exporter deletes confirmed. */
export function withoutDeletes(plan: Plan): Plan {
  return { ...plan, actions: plan.actions.filter((a) => a.type !== 'DeleteExporter') };
}
