/**
 * The executor: applies a plan's actions through the API, one group of actions after the other in the
 * plan's order (creates before disables and deletes; the writes of one group concurrently), and
 * reports what it applied (execution-record.ts). It decides nothing the planner decides; what is its own:
 *
 * - **Finalizer first**: nothing goes before the drain finalizer is on the set; then the revision the
 *   pass's creates run is recorded (revision-history.ts).
 * - **Slow start** (SPEC §3.5, slow-start-batch.ts): Exporter creates go in batches sized by the set's
 *   window and stop at the first failed batch.
 * - **Overlap**: promotions and renders concern instances that exist already, so they are sent while the
 *   create batches are in flight rather than after them; creates and renders share one bound of
 *   `maxBurst` writes in flight, and everything else (config syncs, Pod and Exporter removals) follows,
 *   `WRITE_CONCURRENCY` writes at a time.
 * - **`afterCreates`**: a removal the planner made conditional on this pass's creates is skipped when
 *   one of them failed.
 *
 * The live Lease list that confirms Exporter deletes (SPEC §3.7) is a planner input: right before the
 * deletes the reconciler's `confirmDeletes` reads it and plans again (lease-check.ts `withLeaseCheck`);
 * only the deletes that plan holds are sent, each guarded by the Exporter the pass decided on
 * (apply-action.ts: a lease assigned after the list changes the Exporter, and the delete is refused).
 */
import type { KubeClients } from '../kube/clients';
import { Limiter } from '../kube/limiter';
import { resolveOptions, type Action, type ActionType, type Plan } from '../planner';
import { applyAction } from './apply-action';
import type { ActionOutcome, Execution } from './execution';
import { ExecutionRecord } from './execution-record';
import type { Expectations } from './expectations';
import { slowStartBatch } from './slow-start-batch';
import type { SlowStart } from './slow-start';
import type { SetWorld } from './read-set-world';

export interface ExecutorDeps {
  readonly clients: KubeClients;
  readonly expectations: Expectations;
  /** Each set's create window, kept across passes. */
  readonly slowStart: SlowStart;
}

/** Writes of one action group in flight at once, for groups outside the `maxBurst` bound. */
export const WRITE_CONCURRENCY = 16;

/** The groups sent while the create batches are in flight (they concern instances that exist already). */
const ALONGSIDE_CREATES: ReadonlySet<ActionType> = new Set(['PromoteStandby', 'RenderInstance']);
/** The groups sent before the others: the finalizer, then the creates with what overlaps them. */
const FIRST: ReadonlySet<ActionType> = new Set([
  'AddFinalizer',
  'RecordRevision',
  'CreateExporter',
  ...ALONGSIDE_CREATES,
]);

/**
 * Applies `plan`. `confirmDeletes`, when given, is called right before the Exporter deletes (and only
 * when there are any): it returns the plan made again with the live Lease list, and only the deletes
 * that plan still holds are sent.
 */
export async function execute(
  world: SetWorld,
  plan: Plan,
  deps: ExecutorDeps,
  confirmDeletes?: () => Promise<Plan>,
): Promise<Execution> {
  const { key, snapshot } = world;
  const record = new ExecutionRecord(key, deps.expectations);
  const apply = async (action: Action): Promise<ActionOutcome> => {
    const outcome = await applyAction(action, deps.clients, world);
    record.add(action, outcome);
    return outcome;
  };
  const groups = groupsOf(plan.actions);
  // A set deleted before its drain finalizer lands is gone at once, and the garbage collector deletes
  // its instances, leased ones and their Leases too: without the finalizer nothing else is sent.
  for (const action of groups.get('AddFinalizer') ?? []) {
    if ((await apply(action)).kind === 'failed') return record.result();
  }

  // The revision new instances run is recorded before they are created (a failed record fails the
  // pass, which is retried; the creates go on: the next pass records it, as an instance runs it).
  for (const action of groups.get('RecordRevision') ?? []) await apply(action);

  const { maxBurst } = resolveOptions(snapshot.options);
  const burst = new Limiter(maxBurst);
  const creates = groups.get('CreateExporter') ?? [];
  const createFailure = slowStartBatch(creates, deps.slowStart.window(key, maxBurst), async (action) => {
    const outcome = await burst.run(() => apply(action), true);
    return outcome.kind === 'failed' ? outcome : undefined;
  });
  // Started once the first batch is sent: promotions and renders take the slots the creates leave.
  const alongside = sendGroups(groups, ALONGSIDE_CREATES, (group) => burst.forEach(group, apply));
  const failed = await createFailure;
  // The burst is over (nothing planned, nothing in flight): a later scale-up starts at one again.
  if (creates.length === 0 && !snapshot.inFlight?.creating?.length) deps.slowStart.forget(key);
  await alongside;

  const later = plan.actions.filter((a) => !FIRST.has(a.type));
  const confirmed = await confirmedDeletes(later, confirmDeletes);
  const rest = later.filter(
    (a) =>
      !(failed && 'afterCreates' in a && a.afterCreates === true) &&
      !(a.type === 'DeleteExporter' && confirmed && !confirmed.has(a.name)),
  );
  const writes = new Limiter(WRITE_CONCURRENCY);
  await sendGroups(groupsOf(rest), undefined, (group) => writes.forEach(group, apply));
  return record.result();
}

/** The Exporter deletes the plan made with the live Lease list still holds (undefined: no check asked). */
async function confirmedDeletes(
  actions: readonly Action[],
  confirmDeletes: (() => Promise<Plan>) | undefined,
): Promise<ReadonlySet<string> | undefined> {
  if (!confirmDeletes || !actions.some((a) => a.type === 'DeleteExporter')) return undefined;
  const again = await confirmDeletes();
  return new Set(again.actions.flatMap((a) => (a.type === 'DeleteExporter' ? [a.name] : [])));
}

/** The plan's actions by type, in the plan's order of groups. */
function groupsOf(actions: readonly Action[]): Map<ActionType, Action[]> {
  const groups = new Map<ActionType, Action[]>();
  for (const action of actions) {
    const group = groups.get(action.type);
    if (group) group.push(action);
    else groups.set(action.type, [action]);
  }
  return groups;
}

/** Sends the groups (those of `types`, when given) one after the other. */
async function sendGroups(
  groups: ReadonlyMap<ActionType, readonly Action[]>,
  types: ReadonlySet<ActionType> | undefined,
  send: (group: readonly Action[]) => Promise<void>,
): Promise<void> {
  for (const [type, group] of groups) if (!types || types.has(type)) await send(group);
}
