/**
 * Instances whose Pod the controller tried to start and could not (SPEC §3.18): the render failed, or
 * the API refused the config Secret or the Pod (a 403 from RBAC, a 422 for a Secret over 1 MiB). Each
 * is kept with the controller's own clock time of the first failed try and the last failure, so the
 * planner fails the instance once it has waited the startup timeout (instances.ts) — an instance with
 * no Pod never reaches the timeout a booting Pod has — and its replacement goes through the startup
 * backoff instead of the pool waiting for ever.
 *
 * Kept in memory: a restarted controller measures the wait again from its own first try (the wait is
 * at most doubled by a restart, never unbounded), and no other clock is read. The first try is kept as
 * the clock's monotonic reading and handed out as a wall time of now (as first-observed.ts does),
 * so a step of the wall clock neither ends the wait early nor prolongs it.
 */
import { ConditionReasons as R } from 'virtual-exporters/internal';
import type { PodWriteFailure } from '../planner';
import { elapsedOf, wallTimeOf, type Clock } from '../queue/clock';
import type { Execution } from './execution';

/** The writes an instance needs before it has a Pod: while they fail, it waits for its Pod. */
const POD_WRITES: ReadonlySet<string> = new Set([
  R.FailedRender,
  R.FailedCreateSecret,
  R.FailedCreatePod,
  R.FailedRealise,
]);

export class PodWaits {
  /** Per set, per instance: the wait, `since` as the clock's monotonic reading. */
  private readonly bySet = new Map<string, Map<string, PodWriteFailure>>();

  constructor(private readonly clock: Clock) {}

  /** Records what a pass's renders did: failed ones wait (from their first failure), applied ones not. */
  record(key: string, execution: Pick<Execution, 'applied' | 'instanceFailures'>): void {
    let waits = this.bySet.get(key);
    for (const action of execution.applied) if (action.type === 'RenderInstance') waits?.delete(action.name);
    const now = elapsedOf(this.clock);
    for (const { name, reason, message } of execution.instanceFailures) {
      if (!POD_WRITES.has(reason)) continue;
      if (!waits) {
        waits = new Map();
        this.bySet.set(key, waits);
      }
      waits.set(name, { since: waits.get(name)?.since ?? now, reason, message });
    }
    if (waits?.size === 0) this.bySet.delete(key);
  }

  /** The instance's failed Pod start, if it is waiting for one (`since` on the wall clock of now). */
  of(key: string, name: string): PodWriteFailure | undefined {
    const wait = this.bySet.get(key)?.get(name);
    if (wait === undefined) return undefined;
    const now = { wall: this.clock.now(), elapsed: elapsedOf(this.clock) };
    return { ...wait, since: wallTimeOf(wait.since, now) };
  }

  /** Keeps only the instances still without a Pod (the others got one, or are gone). */
  keepOnly(key: string, waiting: ReadonlySet<string>): void {
    const waits = this.bySet.get(key);
    if (!waits) return;
    for (const name of waits.keys()) if (!waiting.has(name)) waits.delete(name);
    if (waits.size === 0) this.bySet.delete(key);
  }

  forget(key: string): void {
    this.bySet.delete(key);
  }
}
