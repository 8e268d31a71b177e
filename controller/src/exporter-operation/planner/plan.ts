/**
 * The pure planner of an ExporterOperation: the operation and its world in, the next step out — the
 * writes to make, the status to report, the events, and when to look again. No I/O and no clock:
 * `snapshot.now` is the time.
 *
 * Rules, in priority order:
 * 1. a finished operation (Complete or Failed) is deleted `ttlSecondsAfterFinished` after it finished
 *    (ttl.ts);
 * 2. an operation whose target belongs to a set of another provisioner is left alone (its controller
 *    acts on it);
 * 3. an operation this controller does not know (a provisioner-specific `<domain>/<Name>`) fails
 *    (UnsupportedOperation; decide.ts);
 * 4. a missing target fails it (ExporterNotFound, NotAnInstance, ExporterSetNotFound), except that a
 *    Recycle or Drain whose instance is gone after it started is Complete — the set did its part
 *    (instance/context.ts, selector/decide-selector.ts);
 * 5. `activeDeadlineSeconds` after the start, an unfinished operation fails (DeadlineExceeded;
 *    deadline.ts);
 * 6. a selector operation chooses its instances once, creates one child operation per instance and
 *    reports their results (Complete when all are, Failed once all finished and one failed; selector/);
 * 7. an operation on one instance never takes a leased instance away: while a non-ended Lease names it,
 *    it waits (WaitingForLease), and only then acts (instance/decide-instance.ts, one file per kind):
 *    - Recycle marks the instance (`recycle-requested`); the set replaces it the way a rollout
 *      replaces an outdated instance, a replacement first, so the warm buffer holds; Complete once the
 *      instance is gone;
 *    - Drain disables it with the set's retiring marker, as a scale-down does; the set deletes it and
 *      refills by its rules; Complete once it is gone. When no other instance of the set would stay
 *      enabled (none is, or every one is the target of another unfinished Drain or Disable), it is
 *      recycled instead, a replacement first: with nothing enabled, Jumpstarter ends every waiting
 *      lease of the pool at once (AllDisabled), which the set's own rules never allow (SPEC §3.6);
 *    - Disable sets `spec.enabled: false` with the manually-disabled annotation, as an operator
 *      disabling by hand does (SPEC §3.11: kept, not counted, never a victim); Enable undoes that.
 *      Neither applies to an instance the set is removing (InstanceRetiring);
 *    - nothing applies to an instance of a set being deleted (ExporterSetDeleting): its drain decides.
 * The status, events and timers of a pass are finish.ts and status.ts.
 */
import { toMillis } from '../../planner';
import { decide } from './decide';
import { finish } from './finish';
import { isFinished } from './outcome';
import type { OperationPlan } from './plan-result';
import type { OperationSnapshot } from './snapshot';
import { planFinished } from './ttl';

export function planOperation(snapshot: OperationSnapshot): OperationPlan {
  const { operation: op, now } = snapshot;
  const status = op.status;
  if (isFinished(status)) return planFinished(snapshot);
  if (
    snapshot.set !== undefined &&
    snapshot.setProvisioner !== undefined &&
    snapshot.setProvisioner !== snapshot.provisioner
  ) {
    return {
      ignored: `the set's class names provisioner ${snapshot.setProvisioner}`,
      actions: [],
      events: [],
    };
  }
  const start = toMillis(status?.startTime) ?? now;
  return finish(snapshot, start, decide(snapshot, start));
}
