/**
 * What each Exporter of a set is right now (SPEC §3 definitions): one state per instance, in a fixed
 * precedence, plus the facts the rules need (ready, leased, revision, runtime, failure time).
 *
 * State precedence (the first that applies wins):
 * 1. `detached`: no controller ownerReference to this set (removed by hand, or released by us; or
 *    one to an earlier set of the same name, another uid) — ignored, and replaced by the rules like any
 *    missing instance (SPEC §3.11). An owned Exporter is an instance whatever its labels or name
 *    (SPEC §3.16: upstream's controller makes them with `generateName` and the template labels only);
 * 2. `deleting`: a deletionTimestamp, or a delete in flight — already gone for planning;
 * 3. `leased`: a non-ended Lease names it — never disabled, deleted or counted as supply;
 * 4. `retiring`: disabled by the controller (retiring marker) — deleted once no lease names it;
 * 5. `disabledByHand`: `spec.enabled: false` without our marker (or with the manually-disabled
 *    annotation) — kept, not available, never a victim;
 * 6. `failed` / `exited`: its realisation ended (runtime.ts: Pod phase Failed / Succeeded, or the
 *    provisioner observed it failed / exited);
 * 7. `standby`: the standby label and no Pod;
 * 8. `available`: ready (Online and Registered), enabled, not leased, and in an exporter status
 *    Jumpstarter assigns (`Available`, `Unspecified` or none);
 * 9. `offline`: not ready although this Pod's exporter was seen ready, or stuck in a failed lease hook;
 * 10. `starting`: created, not ready yet (Pod booting, not rendered yet, or being replaced), or
 *    running a lease hook (about to be available again, or to exit) — unless its Pod has existed
 *    for longer than the startup timeout without its exporter ever becoming ready: then it is
 *    `failed` (stuck booting, unschedulable, an image that never pulls), replaced like a Pod that
 *    failed and counted as a startup failure, so a stuck instance never holds the warm buffer. The
 *    same holds for an instance that still has no Pod because its credential never came
 *    (credential-wait.ts): its startup timeout counts from the Exporter's creation; and for one whose
 *    Pod the controller could not start (pod-wait.ts): its timeout counts from the first failed try.
 */
import {
  Annotations,
  ExporterConditionTypes,
  Labels,
  instanceOrdinal,
  type Exporter,
  type ExporterSet,
  type ScaleReason,
} from 'virtual-exporters/internal';
import type { InstanceSnapshot } from '../model/snapshot';
import { factTime, toMillis, watchedSince, type PassClock } from '../model/time';
import { conditionIsTrue, nameOf } from '../model/wire-guards';
import { recycleRequested, type RecycleRequest } from '../spec/requested-recycle';
import { awaitedCredential, credentialIssued } from './credential-wait';
import type { InFlightNames } from './in-flight';
import type { InstanceState, InstanceView } from './instance-view';
import { isOwnedBy } from './ownership';
import { podWaitEnded } from './pod-wait';
import { hasEnded, instanceRuntime, isLive, realisationExists, type InstanceRuntime } from './runtime';

export interface ClassifyContext {
  readonly set: ExporterSet;
  /** The current template revision; undefined when it cannot be computed (no class). */
  readonly revision: string | undefined;
  /** Exporters held by non-ended leases (see `leasedExporterNames`). */
  readonly leased: ReadonlySet<string>;
  /** Exporters any lease was assigned to (see `everLeasedExporterNames`). */
  readonly everLeased: ReadonlySet<string>;
  /** Leases known to have ended (see `endedLeaseNames`). */
  readonly endedLeases: ReadonlySet<string>;
  readonly inFlight: InFlightNames;
  /** The set's requested recycle, if any (requested-recycle.ts). */
  readonly recycle?: RecycleRequest;
  /**
   * The pass's clock, the startup timeout (SPEC §3.9) and the backoff cap (the longest a failure's time
   * matters; default the timeout); without it no instance is ever stuck.
   */
  readonly startup?: PassClock & { readonly timeoutMs: number; readonly backoffMaxMs?: number };
}

const SCALE_REASONS: ReadonlySet<string> = new Set<ScaleReason>([
  'floor',
  'warm-buffer',
  'demand',
  'standby',
  'rollout',
  'recycle',
  'failed',
  'scale-down',
  'drain',
]);

/** Exporter statuses Jumpstarter assigns leases to (INTEROP §2, step 8). */
const ASSIGNABLE: ReadonlySet<string> = new Set(['', 'Available', 'Unspecified']);
const HOOK_FAILED: ReadonlySet<string> = new Set(['BeforeLeaseHookFailed', 'AfterLeaseHookFailed']);

function conditionTrue(exporter: Exporter, type: string): boolean {
  return conditionIsTrue(exporter.status?.conditions, type);
}

/**
 * Whether the exporter was seen ready since its realisation began: online now, or `lastSeen` not before
 * the Pod's creation (both are often whole seconds, so the creation time is cut to its second). A
 * realisation off the cluster has no creation time on any clock but ours, and its Exporter is not
 * realised twice under ExitAndReplace, so any `lastSeen` dates it.
 */
function readySinceRealised(instance: InstanceSnapshot, ready: boolean): boolean {
  if (ready) return true;
  const { pod } = instance;
  if (pod === undefined && !realisationExists(instance)) return false;
  const lastSeen = toMillis(instance.exporter.status?.lastSeen);
  const created = pod !== undefined ? toMillis(pod.metadata?.creationTimestamp) : undefined;
  if (lastSeen === undefined) return false;
  return created === undefined || lastSeen >= Math.floor(created / 1000) * 1000;
}

/** Classifies one Exporter of the set's snapshot (see the module doc for the precedence). */
export function classifyInstance(instance: InstanceSnapshot, context: ClassifyContext): InstanceView {
  const { exporter } = instance;
  const { set, inFlight } = context;
  const observed = instance.observed ?? {};
  const name = exporter.metadata?.name ?? '';
  const labels = exporter.metadata?.labels ?? {};
  const annotations = exporter.metadata?.annotations ?? {};
  const online = conditionTrue(exporter, ExporterConditionTypes.Online);
  const ready = online && conditionTrue(exporter, ExporterConditionTypes.Registered);
  // A Pod the controller watched from its start was ready if it saw it ready (§3.17); Jumpstarter's
  // lastSeen against the API server's creationTimestamp compares two clocks, so it only dates a Pod
  // that was there before the controller's first look.
  const everReady =
    ready ||
    observed.podReady !== undefined ||
    (!watchedSince(observed.pod, context.startup ?? { now: 0 }) && readySinceRealised(instance, ready));
  const disabling = inFlight.disabling.has(name);
  const enabled = exporter.spec?.enabled !== false && !disabling;
  const leased = context.leased.has(name);
  const clock = context.startup ?? { now: 0, timeoutMs: 0, backoffMaxMs: 0 };
  const runtime = instanceRuntime(instance, inFlight.deletingPods.has(name), clock);
  const podPresent = realisationExists(instance) || inFlight.rendering.has(name);
  const standby = labels[Labels.standby] === 'true' && !podPresent && !inFlight.promoting.has(name);
  const revision = labels[Labels.templateRevision];
  const ended = hasEnded(runtime);
  const markerReason = annotations[Annotations.retiring];
  const byHand = annotations[Annotations.manuallyDisabled] === 'true';
  const retiring = !enabled && !byHand && (disabling || markerReason !== undefined);
  const leaseRef = nameOf(exporter.status?.leaseRef);

  let state: InstanceState;
  if (!isOwnedBy(exporter, set) || inFlight.releasing.has(name)) state = 'detached';
  else if (exporter.metadata?.deletionTimestamp !== undefined || inFlight.deleting.has(name))
    state = 'deleting';
  else if (leased) state = 'leased';
  else if (retiring) state = 'retiring';
  else if (!enabled) state = 'disabledByHand';
  else if (ended && runtime.state === 'failed') state = 'failed';
  else if (ended) state = 'exited';
  else if (standby) state = 'standby';
  else if (ready && ASSIGNABLE.has(exporter.status?.exporterStatus ?? '')) state = 'available';
  else if (ready && HOOK_FAILED.has(exporter.status?.exporterStatus ?? '')) state = 'offline';
  else if (ready) state = 'starting';
  else if (isLive(runtime) && everReady) state = 'offline';
  else state = 'starting';

  const createdAt = toMillis(exporter.metadata?.creationTimestamp);
  const since = factTime(observed.exporter, createdAt, clock, clock.timeoutMs);
  const podSince = runtime.since;
  let endedAt = ended ? runtime.endedAt : undefined;
  let endMessage = ended ? runtime.message : undefined;
  const stuckSince = state === 'starting' ? stuckAt(runtime, context) : undefined;
  if (stuckSince !== undefined && !everReady) {
    state = 'failed';
    endedAt = stuckSince;
    const why =
      instance.pod !== undefined
        ? (instance.pod.status?.message ?? instance.pod.status?.reason)
        : runtime.message;
    const what = instance.pod !== undefined ? 'its Pod was created' : 'it was realised';
    endMessage = `not ready ${Math.round(context.startup!.timeoutMs / 1000)} s after ${what}${why ? ` (${why})` : ''}`;
  }
  const awaiting =
    state === 'starting' && !standby && !podPresent && !credentialIssued(instance)
      ? awaitedCredential(instance)
      : undefined;
  if (awaiting !== undefined && context.startup) {
    const deadline = since + context.startup.timeoutMs;
    if (context.startup.now >= deadline) {
      state = 'failed';
      endedAt = deadline;
      endMessage = `no Pod ${Math.round(context.startup.timeoutMs / 1000)} s after the Exporter was created: Jumpstarter never issued its ${awaiting}`;
    }
  }
  const podWait =
    state === 'starting' && !standby && context.startup ? podWaitEnded(instance, context.startup) : undefined;
  if (podWait !== undefined) {
    state = 'failed';
    ({ endedAt, endMessage } = podWait);
  }
  const toRecycle = recycleRequested(
    context.recycle,
    createdAt ?? 0,
    toMillis(annotations[Annotations.recycleRequestedAt]),
  );
  return {
    name,
    ...(instanceOrdinalOf(set, name) !== undefined ? { ordinal: instanceOrdinalOf(set, name) } : {}),
    state,
    ready,
    enabled,
    leased,
    servedLease: context.everLeased.has(name),
    standby,
    ...(revision !== undefined ? { revision } : {}),
    // A Recycle operation's mark makes the instance outdated: the set replaces it as in a rollout.
    current:
      context.revision !== undefined &&
      (revision === undefined || revision === context.revision) &&
      !toRecycle &&
      annotations[Annotations.recycleRequested] === undefined,
    recycleRequested: toRecycle,
    runtime,
    podPresent,
    everReady,
    createdAt: createdAt ?? 0,
    since,
    ...(podSince !== undefined ? { podSince } : {}),
    ...(endedAt !== undefined ? { endedAt } : {}),
    ...(endMessage !== undefined ? { endMessage } : {}),
    ...(retiring
      ? {
          retiringReason: SCALE_REASONS.has(markerReason ?? '')
            ? (markerReason as ScaleReason)
            : 'scale-down',
        }
      : {}),
    leaseRefUnconfirmed: leaseRef !== undefined && leaseRef !== '' && !context.endedLeases.has(leaseRef),
    online,
    ...(awaiting !== undefined && state === 'starting' ? { awaiting } : {}),
    source: instance,
  };
}

/** When a live realisation's startup timed out (when it began + the timeout), if it has by now. */
function stuckAt(runtime: InstanceRuntime, context: ClassifyContext): number | undefined {
  if (!context.startup || !isLive(runtime) || runtime.since === undefined) return undefined;
  const deadline = runtime.since + context.startup.timeoutMs;
  return context.startup.now >= deadline ? deadline : undefined;
}

function instanceOrdinalOf(set: ExporterSet, name: string): number | undefined {
  return instanceOrdinal(set.metadata?.name ?? '', name);
}
