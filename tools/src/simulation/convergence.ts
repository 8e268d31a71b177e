/**
 * What a settled lab looks like once faults stop, judged from the store alone by recounting
 * — an oracle independent of the planner: every lease the sets can serve is served; every set meets
 * its floor and warm buffer, carries no runaway surplus, stays within its ceiling, reports counters
 * equal to a recount (upstream's meanings, INTEROP §1.3), upstream's conditions as upstream's rules
 * give them for that recount, and healthy conditions of ours, for its current generation; deleted sets are gone with
 * their instances; no Pod or config Secret is left without its Exporter.
 *
 * The floor and the warm buffer are the ones in effect: the spec's raised by the windows of
 * `spec.schedules` open now and by the forecast in mode Apply (raised-buffer.ts, the one part that
 * computes with the planner's functions), read on the controller's clock; the set reports them
 * (`status.effectiveMinAvailableReplicas` while raised, `status.forecast`'s buffer and whether it applies).
 *
 * `unmet` lists what does not hold yet; the lab has converged when it is empty.
 */
import {
  Annotations,
  ExporterConditionTypes,
  Labels,
  type Condition,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { demandObjectName } from 'virtual-exporters-controller/internal';
import type { KubeObject, TestCluster } from 'virtual-exporters-test-cluster';
import { raisedBuffer, type RaisedBuffer } from './raised-buffer';

const isTrue = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.some((c) => c.type === type && c.status === 'True') ?? false;

const ownerUid = (exporter: Exporter): string | undefined =>
  exporter.metadata?.ownerReferences?.find((o) => o.controller === true && o.kind === 'ExporterSet')?.uid;

export interface ConvergenceInput {
  readonly namespace: string;
  /** Names of sets that must be gone (deleted during the run and not re-created). */
  readonly deletedSets: ReadonlySet<string>;
  /** Leases that must have been assigned (the calm phase's probes). */
  readonly probeLeases: readonly string[];
  /** The controller's clock now, on which windows and forecasts are read. @default its clock in the cluster */
  readonly controllerNow?: number;
  /**
   * The seed stepped the controller's clock: the demand history the controller holds may differ from
   * what its object shows at the controller's clock now. One written before a step back reads as
   * ending after now: a controller that read it before the step still holds it, one that read it
   * after refused it and holds none. The set's forecast is then expected from one of the three.
   */
  readonly historyMayBeRefused?: boolean;
  /** Told each live set's buffer in effect, at every check (the last call is the converged state). */
  readonly onRaised?: (set: string, raised: RaisedBuffer) => void;
}

/** Far enough after any step of the controller's clock (at most an hour) to read any history it wrote. */
const AFTER_ANY_STEP_MS = 24 * 3_600_000;

/** The buffer in effect for `set`: raised as the controller raises it (see the module doc). */
function bufferInEffect(
  set: ExporterSet,
  input: ConvergenceInput,
  now: number,
  demand: KubeObject | undefined,
): RaisedBuffer {
  const asRead = raisedBuffer(set, { now, ...(demand ? { demand } : {}) });
  if (input.historyMayBeRefused !== true) return asRead;
  // The history as the object holds it (read before a step back), or none (refused after it).
  const candidates = [
    asRead,
    raisedBuffer(set, { now, ...(demand ? { demand, readAt: now + AFTER_ANY_STEP_MS } : {}) }),
    raisedBuffer(set, { now }),
  ];
  const reported = set.status?.forecast?.warmBuffer;
  return candidates.find((c) => c.forecast?.warmBuffer === reported) ?? asRead;
}

export function unmet(cluster: TestCluster, input: ConvergenceInput): string[] {
  const { store, registry } = cluster;
  const ns = input.namespace;
  const list = <T>(group: string, version: string, plural: string) =>
    store.list(registry.get(group, version, plural)!, ns).items as unknown as T[];
  const sets = list<ExporterSet>('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets');
  const exporters = list<Exporter>('jumpstarter.dev', 'v1alpha1', 'exporters');
  const leases = list<Lease>('jumpstarter.dev', 'v1alpha1', 'leases');
  const pods = list<KubeObject>('', 'v1', 'pods');
  const secrets = list<KubeObject>('', 'v1', 'secrets');
  const configMaps = list<KubeObject>('', 'v1', 'configmaps');
  const controllerNow = input.controllerNow ?? cluster.clocks.controller.now();
  const classes = list<VirtualTargetClass>(
    'virtualtarget.jumpstarter.dev',
    'v1alpha1',
    'virtualtargetclasses',
  );
  const problems: string[] = [];

  const heldBy = new Map<string, string>();
  for (const l of leases) {
    const name = l.status?.exporterRef?.name;
    if (name && l.status?.ended !== true) heldBy.set(name, l.metadata?.name ?? '');
  }
  for (const probe of input.probeLeases) {
    const lease = leases.find((l) => l.metadata?.name === probe);
    if (!lease?.status?.exporterRef?.name) {
      const why = (lease?.status?.conditions ?? []).map(
        (c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`,
      );
      problems.push(`lease ${probe} is not served (${why.join('; ') || 'no conditions'})`);
    }
  }

  for (const set of sets) {
    const name = set.metadata?.name ?? '';
    if (input.deletedSets.has(name)) {
      problems.push(`set ${name} was deleted and still exists`);
      continue;
    }
    const spec = set.spec ?? ({} as ExporterSet['spec']);
    const status = set.status;
    const mine = exporters.filter((e) => ownerUid(e) === set.metadata?.uid && !e.metadata?.deletionTimestamp);
    const podOf = (e: Exporter) => pods.find((p) => p.metadata.name === e.metadata?.name);
    const leased = mine.filter((e) => heldBy.has(e.metadata?.name ?? ''));
    const available = mine.filter((e) => {
      const phase = (podOf(e)?.status as { phase?: string } | undefined)?.phase;
      return (
        !heldBy.has(e.metadata?.name ?? '') &&
        e.spec?.enabled !== false &&
        isTrue(e.status?.conditions, ExporterConditionTypes.Online) &&
        isTrue(e.status?.conditions, ExporterConditionTypes.Registered) &&
        phase !== 'Failed' &&
        phase !== 'Succeeded'
      );
    });
    // With WaitForFirstConsumer the warm buffer is made of standbys: Exporters without a Pod yet.
    const cls = classes.find((c) => c.metadata?.name === spec.virtualTargetClassName);
    const standbys =
      cls?.spec?.bindingMode === 'WaitForFirstConsumer'
        ? mine.filter((e) => !heldBy.has(e.metadata?.name ?? '') && e.spec?.enabled !== false && !podOf(e))
        : [];
    const demand = configMaps.find((c) => c.metadata.name === demandObjectName(name));
    const raised = bufferInEffect(set, input, controllerNow, demand);
    input.onRaised?.(name, raised);
    const { minReplicas, minAvailable } = raised;
    const max = raised.spec.maxReplicas;
    const wanted = max > 0 ? Math.min(minAvailable, Math.max(0, max - leased.length)) : minAvailable;
    const say = (what: string) => problems.push(`set ${name}: ${what}`);
    const raisedBy = [
      ...(raised.bySchedule ? ['a window'] : []),
      ...(raised.byForecast ? ['the forecast'] : []),
    ].join(' and ');
    checkRaiseReported(set, raised, say);

    if (status?.observedGeneration !== set.metadata?.generation) {
      say(`observedGeneration ${status?.observedGeneration} behind generation ${set.metadata?.generation}`);
    }
    const supply = available.length + standbys.length;
    if (supply < wanted) {
      const why = raisedBy ? ` (raised from ${raised.spec.minAvailable} by ${raisedBy})` : '';
      say(`${supply} available or standby, the warm buffer asks for ${wanted}${why}`);
    }
    if (mine.length < Math.min(minReplicas, max > 0 ? max : Infinity)) {
      say(`${mine.length} instances, minReplicas ${minReplicas}`);
    }
    const describe = (e: Exporter) => {
      const n = e.metadata?.name ?? '';
      const phase = (podOf(e)?.status as { phase?: string } | undefined)?.phase ?? 'no Pod';
      const standby = e.metadata?.labels?.[Labels.standby] === 'true' ? ' standby' : '';
      const use = heldBy.has(n) ? (e.spec?.enabled === false ? 'leased, disabled' : 'leased') : 'idle';
      return `${n} (${e.spec?.enabled === false && !heldBy.has(n) ? 'disabled' : use}${standby}, ${phase})`;
    };
    // Rule 6 before rule 4 for an object without a Pod: one standby may stand beyond the ceiling while
    // every instance filling it is disabled on its way out (held by a lease until it ends), so a new
    // lease finds an enabled Exporter to wait on instead of being ended at once (the `ceiling`
    // invariant counts the same way).
    const isStandby = (e: Exporter) => e.metadata?.labels?.[Labels.standby] === 'true' && !podOf(e);
    const others = mine.filter((e) => !isStandby(e));
    const rule6Keeper =
      mine.length - others.length === 1 &&
      others.length <= max &&
      others.every((e) => e.spec?.enabled === false);
    if (max > 0 && mine.length > max && !rule6Keeper) {
      say(`${mine.length} instances above maxReplicas ${max}: ${mine.map(describe).join(', ')}`);
    }
    // Idle beyond the need after the cooldown: the buffer, the floor, and one standby at most.
    const idle = mine.filter((e) => !heldBy.has(e.metadata?.name ?? '') && e.spec?.enabled !== false);
    const keep = Math.max(minAvailable, minReplicas - leased.length) + 1;
    if (idle.length > keep) say(`${idle.length} idle instances, more than the ${keep} the rules keep`);
    if (status?.replicas !== mine.length) say(`status.replicas ${status?.replicas}, recount ${mine.length}`);
    if (status?.leasedReplicas !== leased.length) {
      say(`status.leasedReplicas ${status?.leasedReplicas}, recount ${leased.length}`);
    }
    // Upstream's counters: ready = Online; available = Online, enabled, not leased.
    const online = mine.filter((e) => isTrue(e.status?.conditions, ExporterConditionTypes.Online));
    const upstreamAvailable = online.filter(
      (e) => e.spec?.enabled !== false && !heldBy.has(e.metadata?.name ?? ''),
    );
    if (status?.readyReplicas !== online.length) {
      say(`status.readyReplicas ${status?.readyReplicas}, recount ${online.length}`);
    }
    if (status?.availableReplicas !== upstreamAvailable.length) {
      say(`status.availableReplicas ${status?.availableReplicas}, recount ${upstreamAvailable.length}`);
    }
    const split =
      (status?.exportersActive ?? 0) +
      (status?.exportersIdle ?? 0) +
      (status?.exportersDisabled ?? 0) +
      (status?.exportersOffline ?? 0);
    if (split !== mine.length) say(`active + idle + disabled + offline = ${split}, recount ${mine.length}`);
    const conditions = status?.conditions;
    const shown = (type: string) => {
      const c = conditions?.find((x) => x.type === type);
      return c ? `${type}=${c.status} (${c.reason}: ${c.message})` : `${type} missing`;
    };
    // Upstream's Progressing and Degraded, as upstream's rules give them for the recount. An instance
    // that is not online may stay only while a lease holds it (never touched until the lease ends);
    // standbys are not unavailable (the one judged deviation).
    const phaseOf = (e: Exporter) => (podOf(e)?.status as { phase?: string } | undefined)?.phase;
    const unavailable = mine.filter(
      (e) =>
        e.spec?.enabled !== false &&
        !isTrue(e.status?.conditions, ExporterConditionTypes.Online) &&
        !isStandby(e),
    );
    const stuck = unavailable.filter((e) => !heldBy.has(e.metadata?.name ?? ''));
    if (stuck.length > 0) say(`instances not online and not leased: ${stuck.map(describe).join(', ')}`);
    const podsFailed = mine.filter((e) => phaseOf(e) === 'Failed').length;
    const podsPending = mine.filter((e) => podOf(e) && (phaseOf(e) ?? 'Pending') === 'Pending').length;
    const degraded = podsFailed > 0 || (unavailable.length > 0 && podsPending === 0);
    if (isTrue(conditions, 'Degraded') !== degraded) say(shown('Degraded'));
    if (isTrue(conditions, 'Progressing') !== (podsPending > 0 || unavailable.length > 0))
      say(shown('Progressing'));
    if (isTrue(conditions, 'ReplicaFailure')) say(shown('ReplicaFailure'));
    if (!isTrue(conditions, 'InstancesHealthy')) say(shown('InstancesHealthy'));
    if (!isTrue(conditions, 'SpecValid')) say(shown('SpecValid'));
    // A rollout waits for leases to end: outdated leased instances keep Scaling=True (RollingOut). An
    // instance a Recycle operation marked is outdated too: the set replaces it as in a rollout. An
    // instance made before a requested recycle that has not completed is outdated too: made
    // under an older request (its annotation), or without one before the requested time.
    const requested = Date.parse(String(set.spec?.recycleRequestedAt ?? ''));
    const recycleOpen =
      !Number.isNaN(requested) && Date.parse(String(status?.lastCompletedRecycle ?? '')) !== requested;
    const madeBeforeRequest = (e: Exporter) => {
      const stamp = e.metadata?.annotations?.[Annotations.recycleRequestedAt];
      const made =
        stamp !== undefined ? Date.parse(stamp) : Date.parse(String(e.metadata?.creationTimestamp));
      return recycleOpen && made < requested;
    };
    const outdated = mine.filter(
      (e) =>
        e.metadata?.labels?.[Labels.templateRevision] !== status?.templateRevision ||
        madeBeforeRequest(e) ||
        e.metadata?.annotations?.[Annotations.recycleRequested] !== undefined,
    );
    const outdatedIdle = outdated.filter((e) => !heldBy.has(e.metadata?.name ?? ''));
    if (outdatedIdle.length > 0) say(`outdated idle instances: ${outdatedIdle.map(describe).join(', ')}`);
    const rollingOutForLeases =
      outdated.length > 0 &&
      outdatedIdle.length === 0 &&
      conditions?.find((c) => c.type === 'Scaling')?.reason === 'RollingOut';
    if (isTrue(conditions, 'Scaling') && !rollingOutForLeases) say(shown('Scaling'));
    if (!isTrue(conditions, 'ParametersValid')) say(shown('ParametersValid'));
    // Capped by the ceiling, the buffer cannot be met: WarmBufferAvailable=False is then the truth,
    // and Scaling says the ceiling holds it (MaxReplicasReached).
    if (minAvailable > 0 && wanted >= minAvailable && !isTrue(conditions, 'WarmBufferAvailable'))
      say(shown('WarmBufferAvailable'));
    const scaling = conditions?.find((c) => c.type === 'Scaling');
    const saidAbove = scaling?.status === 'True' && !rollingOutForLeases;
    if (
      wanted < minAvailable &&
      scaling?.reason !== 'MaxReplicasReached' &&
      !rollingOutForLeases &&
      !saidAbove
    )
      say(shown('Scaling'));
    // Upstream's Available and ScalingLimited, as upstream's rules give them for the recount; a pool of
    // Immediate binding keeps minReplicas ready (with WaitForFirstConsumer the floor is standbys). The
    // floor counts instances: a leased instance that went offline is never touched until its lease
    // ends, so it fills its place in the floor while Available=False says, truthfully, that it is not
    // ready.
    const minimumReady = (minReplicas === 0 && mine.length === 0) || online.length >= minReplicas;
    if (isTrue(conditions, 'Available') !== minimumReady)
      say(`${shown('Available')}, ${online.length} online`);
    const leasedOffline = mine.filter(
      (e) =>
        !isTrue(e.status?.conditions, ExporterConditionTypes.Online) && heldBy.has(e.metadata?.name ?? ''),
    ).length;
    if (cls?.spec?.bindingMode !== 'WaitForFirstConsumer' && online.length + leasedOffline < minReplicas)
      say(shown('Available'));
    const atMax = max > 0 && mine.length >= max && upstreamAvailable.length < minAvailable;
    if (isTrue(conditions, 'ScalingLimited') !== atMax) say(shown('ScalingLimited'));
  }

  for (const gone of input.deletedSets) {
    const left = exporters.filter(
      (e) =>
        e.metadata?.labels?.[Labels.exporterSetName] === gone &&
        e.metadata?.annotations?.[Annotations.retained] === undefined,
    );
    if (left.length > 0) problems.push(`deleted set ${gone} left ${left.length} instances`);
  }
  const exporterNames = new Set(exporters.map((e) => e.metadata?.name));
  for (const pod of pods) {
    if (pod.metadata.labels?.[Labels.exporterSetName] && !exporterNames.has(pod.metadata.name)) {
      problems.push(`Pod ${pod.metadata.name} has no Exporter`);
    }
  }
  for (const secret of secrets) {
    const owner = secret.metadata.ownerReferences?.find((o) => o.kind === 'Exporter');
    if (owner && !exporterNames.has(owner.name))
      problems.push(`Secret ${secret.metadata.name} has no Exporter`);
  }
  return problems;
}

/**
 * The set reports the raise the oracle expects: `status.effectiveMinAvailableReplicas` while a raise
 * is in effect (absent otherwise), and, with a forecast, its mode, the buffer it would set and whether
 * it applies.
 */
function checkRaiseReported(set: ExporterSet, raised: RaisedBuffer, say: (what: string) => void): void {
  const status = set.status;
  const inEffect =
    raised.minAvailable > raised.spec.minAvailable || raised.minReplicas > raised.spec.minReplicas;
  const effective = status?.effectiveMinAvailableReplicas;
  if (effective !== (inEffect ? raised.minAvailable : undefined)) {
    say(
      `status.effectiveMinAvailableReplicas ${effective}, expected ${inEffect ? raised.minAvailable : 'none'} (spec ${raised.spec.minAvailable})`,
    );
  }
  const forecast = raised.forecast;
  const reported = status?.forecast;
  if (forecast === undefined) {
    if (reported !== undefined)
      say(`status.forecast present with forecast mode Off: ${JSON.stringify(reported)}`);
    return;
  }
  if (
    reported?.mode !== forecast.mode ||
    reported.warmBuffer !== forecast.warmBuffer ||
    reported.applied !== (forecast.raise !== undefined)
  ) {
    say(
      `status.forecast ${JSON.stringify(reported)}, expected mode ${forecast.mode}, warmBuffer ${forecast.warmBuffer}, applied ${forecast.raise !== undefined}`,
    );
  }
}
