/**
 * The pure planner of an ExporterOperation (issue 16 item 5): the operation and its world in, the
 * next step out — the writes to make, the status to report, the events, and when to look again.
 * No I/O and no clock: `snapshot.now` is the time.
 *
 * Rules, in priority order:
 * 1. a finished operation (Complete or Failed) is deleted `ttlSecondsAfterFinished` after it finished;
 * 2. an operation whose target belongs to a set of another provisioner is left alone (its controller
 *    acts on it);
 * 3. an operation this controller does not know (a provisioner-specific `<domain>/<Name>`) fails
 *    (UnsupportedOperation);
 * 4. a missing target fails it (ExporterNotFound, NotAnInstance, ExporterSetNotFound), except that a
 *    Recycle or Drain whose instance is gone after it started is Complete — the set did its part;
 * 5. `activeDeadlineSeconds` after the start, an unfinished operation fails (DeadlineExceeded);
 * 6. a selector operation chooses its instances once, creates one child operation per instance and
 *    reports their results (Complete when all are, Failed once all finished and one failed);
 * 7. an operation on one instance never takes a leased instance away: while a non-ended Lease names it,
 *    it waits (WaitingForLease), and only then acts:
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
 */
import {
  API_VERSION,
  Annotations,
  Kinds,
  OperationConditionTypes as C,
  OperationEventReasons as E,
  OperationLabels,
  OperationNames,
  OperationReasons as R,
  formatIssue,
  matchesSelector,
  selectorToString,
  validateExporterOperation,
  type Condition,
  type Exporter,
  type ExporterOperation,
  type ExporterOperationStatus,
  type ExporterSet,
  type OperationInstanceResult,
  type OperationName,
  type OperationState,
} from 'virtual-exporters/internal';
import { setCondition } from './model/conditions';
import type { PlanEvent } from './model/events';
import type { ExporterMergePatch } from './model/exporter';
import { toMillis, toTimestamp } from './model/time';
import { controllingSetName } from './observe/ownership';

/** One instance of the set as the operation sees it. */
export interface OperationTarget {
  readonly exporter: Exporter;
  /** The name of a non-ended Lease that names the instance in its status, if any. */
  readonly leasedBy?: string;
}

export interface OperationSnapshot {
  readonly now: number;
  /** The provisioner this controller runs. */
  readonly provisioner: string;
  readonly operation: ExporterOperation;
  /** `spec.exporterName`: the Exporter of that name, if cached. */
  readonly target?: OperationTarget;
  /** The set: the named one (`spec.exporterSetName`) or the one controlling the target. */
  readonly set?: ExporterSet;
  /** The provisioner of the set's class; undefined when the class is missing. */
  readonly setProvisioner?: string;
  /** `spec.exporterSetName`: the set's instances (Exporters it controls). */
  readonly instances?: readonly OperationTarget[];
  /** The operation's children (selector operations). */
  readonly children?: readonly ExporterOperation[];
  /** `spec.exporterName`: the other instances of the target's set. */
  readonly siblings?: readonly Exporter[];
  /**
   * Instances named by another unfinished Drain or Disable operation in the namespace: they are about
   * to be disabled, so they keep nothing enabled.
   */
  readonly disabling?: ReadonlySet<string>;
}

export type OperationAction =
  | {
      readonly type: 'PatchExporter';
      readonly name: string;
      readonly uid?: string;
      readonly patch: ExporterMergePatch;
    }
  | { readonly type: 'CreateOperation'; readonly operation: ExporterOperation }
  | { readonly type: 'DeleteOperation'; readonly uid?: string };

export interface OperationPlan {
  /** Why the operation is not this controller's; nothing else is set then. */
  readonly ignored?: string;
  readonly actions: readonly OperationAction[];
  /** The status once the actions are applied; undefined: leave it as it is. */
  readonly status?: ExporterOperationStatus;
  readonly events: readonly PlanEvent[];
  readonly requeueAfterMs?: number;
}

const FINISHED: ReadonlySet<OperationState> = new Set(['Complete', 'Failed']);

export function isFinished(status: ExporterOperationStatus | undefined): boolean {
  return status !== undefined && FINISHED.has(status.state);
}

export function isSupportedOperation(name: string): name is OperationName {
  return (OperationNames as readonly string[]).includes(name);
}

/** The child of `parent` for instance `exporter`: `<parent>-<exporter>`, cut with a hash to 253. */
export function childOperationName(parent: string, exporter: string): string {
  const full = `${parent}-${exporter}`;
  if (full.length <= 253) return full;
  let hash = 0x811c9dc5;
  for (const c of full) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0;
  const suffix = hash.toString(16).padStart(8, '0');
  return `${full.slice(0, 253 - suffix.length - 1).replace(/[-.]+$/, '')}-${suffix}`;
}

interface Outcome {
  readonly state: OperationState;
  readonly reason: string;
  readonly message: string;
  readonly instances: readonly OperationInstanceResult[];
  readonly waiting?: string;
  readonly actions?: readonly OperationAction[];
  readonly events?: readonly PlanEvent[];
}

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
  const outcome = decide(snapshot, start);
  return finish(snapshot, start, outcome);
}

function decide(s: OperationSnapshot, start: number): Outcome {
  const { spec } = s.operation;
  const recorded = s.operation.status?.instances ?? [];
  const issues = validateExporterOperation(s.operation);
  if (issues.length > 0) {
    return failed(
      R.InvalidSpec,
      `the spec breaks the CRD's rules: ${issues.map(formatIssue).join('; ')}`,
      recorded,
    );
  }
  if (!isSupportedOperation(spec.operation)) {
    return failed(
      R.UnsupportedOperation,
      `operation ${JSON.stringify(spec.operation)} is not supported by this controller (provisioner ${s.provisioner}); it carries out ${OperationNames.join(', ')}`,
      recorded,
    );
  }
  const deadline =
    spec.activeDeadlineSeconds !== undefined ? start + spec.activeDeadlineSeconds * 1000 : undefined;
  const outcome =
    spec.exporterName !== undefined
      ? decideInstance(s, spec.operation, spec.exporterName)
      : decideSelector(s, spec.exporterSetName ?? '', start);
  if (isFinishedState(outcome.state) || deadline === undefined || s.now < deadline) return outcome;
  const message = `activeDeadlineSeconds (${spec.activeDeadlineSeconds} s) passed before the operation finished: ${outcome.message}; nothing more is done`;
  // The instances not finished by then failed with the operation.
  const instances = outcome.instances.map((i) =>
    isFinishedState(i.state)
      ? i
      : { ...i, state: 'Failed' as const, reason: R.DeadlineExceeded, message: i.message ?? message },
  );
  return failed(R.DeadlineExceeded, message, instances);
}

function isFinishedState(state: OperationState): boolean {
  return FINISHED.has(state);
}

function failed(reason: string, message: string, instances: readonly OperationInstanceResult[]): Outcome {
  return { state: 'Failed', reason, message, instances };
}

// ---- one instance ----

function decideInstance(s: OperationSnapshot, operation: OperationName, name: string): Outcome {
  const ns = s.operation.metadata?.namespace ?? '';
  const recorded = s.operation.status?.instances?.[0];
  const exporter = s.target?.exporter;
  const uid = exporter?.metadata?.uid;
  const result = (state: OperationState, reason: string, message: string): OperationInstanceResult => ({
    exporterName: name,
    ...((recorded?.uid ?? uid) !== undefined ? { uid: recorded?.uid ?? uid } : {}),
    state,
    reason,
    message,
  });
  const one = (state: OperationState, reason: string, message: string, extra: Partial<Outcome> = {}) => ({
    state,
    reason,
    message,
    instances: [result(state, reason, message)],
    ...extra,
  });
  const leaves = operation === 'Recycle' || operation === 'Drain';
  const gone =
    exporter === undefined ||
    (recorded?.uid !== undefined && uid !== recorded.uid) ||
    exporter.metadata?.deletionTimestamp !== undefined;
  if (gone && leaves && recorded?.uid !== undefined) {
    const done = operation === 'Recycle' ? 'was recycled' : 'left its set';
    return one('Complete', R.Succeeded, `instance ${name} ${done}`);
  }
  if (exporter === undefined) {
    return one(
      'Failed',
      R.ExporterNotFound,
      `Exporter ${name} not found in namespace ${ns}; name an instance of an ExporterSet (kubectl get exporters -n ${ns})`,
    );
  }
  if (gone) {
    return one(
      'Failed',
      R.ExporterNotFound,
      `Exporter ${name} is being deleted; ${operation} needs an instance that stays`,
    );
  }
  const setName = controllingSetName(exporter);
  if (setName === undefined || s.set === undefined) {
    return one(
      'Failed',
      R.NotAnInstance,
      `Exporter ${name} is not an instance of an ExporterSet (no controller ownerReference to one); operations act on set instances only`,
    );
  }
  if (s.set.metadata?.deletionTimestamp !== undefined) {
    // The set's drain decides on every instance: an Enable racing it would hand Jumpstarter an
    // instance the drain is deleting (a lease could land on it in between).
    return one(
      'Failed',
      R.ExporterSetDeleting,
      `ExporterSet ${setName} is being deleted and drains instance ${name} itself; ${operation} does nothing`,
    );
  }
  const annotations = exporter.metadata?.annotations ?? {};
  const enabled = exporter.spec?.enabled !== false;
  const byHand = annotations[Annotations.manuallyDisabled] === 'true';
  const retiring = !enabled && !byHand && annotations[Annotations.retiring] !== undefined;
  const waitForSet = (message: string, extra: Partial<Outcome> = {}) =>
    one('InProgress', R.WaitingForSet, message, extra);
  const patch = (p: ExporterMergePatch, message: string): Partial<Outcome> => ({
    actions: [{ type: 'PatchExporter', name, ...(uid !== undefined ? { uid } : {}), patch: p }],
    events: [{ type: 'Normal', reason: E.InstanceMarked, message }],
  });

  if (operation === 'Enable') {
    if (retiring) return retiringFailure(one, name, setName, operation);
    if (enabled && !byHand) return one('Complete', R.Succeeded, `instance ${name} is enabled`);
    return one(
      'Complete',
      R.Succeeded,
      `instance ${name} is enabled`,
      patch(
        { metadata: { annotations: { [Annotations.manuallyDisabled]: null } }, spec: { enabled: true } },
        `enabled instance ${name} (spec.enabled=true)`,
      ),
    );
  }
  if (s.target?.leasedBy !== undefined) {
    const message = `instance ${name} is leased (Lease ${s.target.leasedBy}); ${operation} waits for the lease to end`;
    return { ...one('InProgress', R.WaitingForLease, message), waiting: message };
  }
  switch (operation) {
    case 'Disable':
      if (retiring) return retiringFailure(one, name, setName, operation);
      if (!enabled && byHand) return one('Complete', R.Succeeded, `instance ${name} is disabled`);
      return one(
        'Complete',
        R.Succeeded,
        `instance ${name} is disabled`,
        patch(
          {
            metadata: { annotations: { [Annotations.manuallyDisabled]: 'true' } },
            spec: { enabled: false },
          },
          `disabled instance ${name} (spec.enabled=false, ${Annotations.manuallyDisabled}=true): ExporterSet ${setName} keeps it and refills around it`,
        ),
      );
    case 'Recycle': {
      const message = `instance ${name} is marked for recycling; ExporterSet ${setName} replaces it (the replacement first, so the warm buffer holds)`;
      if (retiring) return waitForSet(`instance ${name} is leaving ExporterSet ${setName}`);
      if (!enabled) {
        return one(
          'Failed',
          R.InstanceDisabled,
          `instance ${name} is disabled by hand, so ExporterSet ${setName} never replaces it; enable it first (operation Enable), then recycle it`,
        );
      }
      if (annotations[Annotations.recycleRequested] !== undefined) return waitForSet(message);
      return waitForSet(
        message,
        patch(
          {
            metadata: {
              annotations: { [Annotations.recycleRequested]: s.operation.metadata?.name ?? 'operation' },
            },
          },
          `marked instance ${name} for recycling (${Annotations.recycleRequested})`,
        ),
      );
    }
    case 'Drain': {
      const message = `instance ${name} is disabled on its way out; ExporterSet ${setName} deletes it and refills by its rules`;
      if (retiring) return waitForSet(`instance ${name} is leaving ExporterSet ${setName}`);
      if (enabled && !othersStayEnabled(s)) {
        const last = `instance ${name} is the last enabled instance of ExporterSet ${setName}, so it is drained a replacement first (marked for recycling): with no enabled Exporter, Jumpstarter would end the pool's waiting leases`;
        if (annotations[Annotations.recycleRequested] !== undefined) return waitForSet(last);
        return waitForSet(
          last,
          patch(
            {
              metadata: {
                annotations: { [Annotations.recycleRequested]: s.operation.metadata?.name ?? 'operation' },
              },
            },
            `marked instance ${name} for recycling (${Annotations.recycleRequested}): the last enabled instance of ExporterSet ${setName} is drained a replacement first`,
          ),
        );
      }
      return waitForSet(
        message,
        patch(
          {
            // The set's own retiring marker (exporter.ts disablePatch), dropping a by-hand disable.
            metadata: {
              annotations: { [Annotations.retiring]: 'drain', [Annotations.manuallyDisabled]: null },
            },
            spec: { enabled: false },
          },
          `disabled instance ${name} to drain it (${Annotations.retiring}=drain)`,
        ),
      );
    }
  }
}

/** Another instance of the set is enabled, not on its way out, and not about to be disabled. */
function othersStayEnabled(s: OperationSnapshot): boolean {
  return (s.siblings ?? []).some((e) => {
    const name = e.metadata?.name ?? '';
    return (
      e.spec?.enabled !== false &&
      e.metadata?.deletionTimestamp === undefined &&
      e.metadata?.annotations?.[Annotations.recycleRequested] === undefined &&
      !(s.disabling?.has(name) ?? false)
    );
  });
}

function retiringFailure(
  one: (state: OperationState, reason: string, message: string) => Outcome,
  name: string,
  setName: string,
  operation: OperationName,
): Outcome {
  return one(
    'Failed',
    R.InstanceRetiring,
    `instance ${name} is being removed by ExporterSet ${setName} (${Annotations.retiring}); it cannot be ${operation === 'Enable' ? 'enabled' : 'disabled'}`,
  );
}

// ---- a selector over a set's instances ----

function decideSelector(s: OperationSnapshot, setName: string, start: number): Outcome {
  const op = s.operation;
  const ns = op.metadata?.namespace ?? '';
  const recorded = op.status?.instances;
  if (s.set === undefined && recorded === undefined) {
    return failed(
      R.ExporterSetNotFound,
      `ExporterSet ${setName} not found in namespace ${ns}; name an existing set (kubectl get exportersets -n ${ns})`,
      [],
    );
  }
  const selector = op.spec.selector ?? {};
  const parentName = op.metadata?.name ?? '';
  const targets: readonly OperationInstanceResult[] =
    recorded ??
    (s.instances ?? [])
      .map((t) => t.exporter)
      .filter(
        (e) =>
          e.metadata?.deletionTimestamp === undefined && matchesSelector(selector, e.metadata?.labels ?? {}),
      )
      .map((e) => e.metadata?.name ?? '')
      .sort()
      .map((name) => {
        const uid = (s.instances ?? []).find((t) => t.exporter.metadata?.name === name)?.exporter.metadata
          ?.uid;
        return {
          exporterName: name,
          ...(uid !== undefined ? { uid } : {}),
          operationName: childOperationName(parentName, name),
          state: 'Pending' as const,
        };
      });
  if (targets.length === 0) {
    return failed(
      R.NoInstancesSelected,
      `the selector ${JSON.stringify(selectorToString(selector))} picks no instance of ExporterSet ${setName} (${(s.instances ?? []).length} instances)`,
      [],
    );
  }
  const children = new Map(
    (s.children ?? [])
      .filter((c) => (c.metadata?.ownerReferences ?? []).some((r) => r.uid === op.metadata?.uid))
      .map((c) => [c.metadata?.name ?? '', c]),
  );
  const actions: OperationAction[] = [];
  const events: PlanEvent[] = [];
  const instances = targets.map((t): OperationInstanceResult => {
    const childName = t.operationName ?? childOperationName(parentName, t.exporterName);
    const child = children.get(childName);
    if (child === undefined) {
      if (isFinishedState(t.state)) return t; // its child was deleted after it finished
      actions.push({
        type: 'CreateOperation',
        operation: childOf(op, t.exporterName, childName, s.now, start),
      });
      events.push({
        type: 'Normal',
        reason: E.ChildCreated,
        message: `created ExporterOperation ${childName} for instance ${t.exporterName}`,
      });
      return {
        ...t,
        operationName: childName,
        state: 'Pending',
        reason: R.Created,
        message: `child operation ${childName} created`,
      };
    }
    const cs = child.status;
    return {
      exporterName: t.exporterName,
      ...(t.uid !== undefined ? { uid: t.uid } : {}),
      operationName: childName,
      state: cs?.state ?? 'Pending',
      ...(cs?.reason !== undefined ? { reason: cs.reason } : {}),
      ...(cs?.message !== undefined ? { message: cs.message } : {}),
    };
  });
  const total = instances.length;
  const done = instances.filter((i) => i.state === 'Complete').length;
  const failedOnes = instances.filter((i) => i.state === 'Failed');
  const waiting = instances.filter((i) => i.reason === R.WaitingForLease);
  const waitingMessage =
    waiting.length > 0
      ? `${waiting.map((i) => i.exporterName).join(', ')} ${waiting.length === 1 ? 'is' : 'are'} leased; the operation waits for ${waiting.length === 1 ? 'that lease' : 'those leases'} to end`
      : undefined;
  const base = { instances, actions, events, ...(waitingMessage ? { waiting: waitingMessage } : {}) };
  if (done === total) {
    return { ...base, state: 'Complete', reason: R.Succeeded, message: `all ${total} instances done` };
  }
  if (done + failedOnes.length === total) {
    return {
      ...base,
      state: 'Failed',
      reason: R.InstancesFailed,
      message: `${failedOnes.length} of ${total} instances failed: ${failedOnes
        .map((i) => `${i.exporterName} (${i.reason ?? 'Failed'}: ${i.message ?? ''})`)
        .join('; ')}`,
    };
  }
  return {
    ...base,
    state: 'InProgress',
    reason: R.InstancesInProgress,
    message: `${done + failedOnes.length} of ${total} instances finished${waitingMessage ? `; ${waitingMessage}` : ''}`,
  };
}

/** The child operation on one instance: the parent's operation and parameters, its remaining deadline. */
function childOf(
  parent: ExporterOperation,
  exporterName: string,
  name: string,
  now: number,
  start: number,
): ExporterOperation {
  const { spec } = parent;
  const remaining =
    spec.activeDeadlineSeconds !== undefined
      ? Math.max(1, Math.ceil((start + spec.activeDeadlineSeconds * 1000 - now) / 1000))
      : undefined;
  return {
    apiVersion: API_VERSION,
    kind: Kinds.ExporterOperation,
    metadata: {
      name,
      namespace: parent.metadata?.namespace ?? '',
      // The parent's name as a label (`kubectl get eop -l`), when it fits in a label value.
      ...((parent.metadata?.name ?? '').length <= 63
        ? { labels: { [OperationLabels.parent]: parent.metadata?.name ?? '' } }
        : {}),
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: Kinds.ExporterOperation,
          name: parent.metadata?.name ?? '',
          uid: parent.metadata?.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: {
      operation: spec.operation,
      exporterName,
      ...(spec.parameters !== undefined ? { parameters: spec.parameters } : {}),
      ...(remaining !== undefined ? { activeDeadlineSeconds: remaining } : {}),
    },
  };
}

// ---- status, events, timers ----

function finish(s: OperationSnapshot, start: number, outcome: Outcome): OperationPlan {
  const { operation: op, now } = s;
  const old = op.status;
  const generation = op.metadata?.generation;
  const finished = isFinishedState(outcome.state);
  let conditions: Condition[] = setCondition(
    old?.conditions,
    outcome.waiting !== undefined
      ? { type: C.WaitingForLease, status: 'True', reason: R.WaitingForLease, message: outcome.waiting }
      : {
          type: C.WaitingForLease,
          status: 'False',
          reason: R.NotWaiting,
          message: 'no targeted instance is leased',
        },
    now,
    generation,
  );
  // The plan's status is written only once its writes succeeded: a failure reported before is over.
  if (old?.conditions?.some((c) => c.type === C.WriteFailure && c.status === 'True')) {
    conditions = setCondition(
      conditions,
      { type: C.WriteFailure, status: 'False', reason: R.NoFailures, message: 'the last writes succeeded' },
      now,
      generation,
    );
  }
  if (finished) {
    conditions = setCondition(
      conditions,
      {
        type: outcome.state === 'Complete' ? C.Complete : C.Failed,
        status: 'True',
        reason: outcome.reason,
        message: outcome.message,
      },
      now,
      generation,
    );
  }
  const status: ExporterOperationStatus = {
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    state: outcome.state,
    reason: outcome.reason,
    message: outcome.message,
    startTime: old?.startTime ?? toTimestamp(start),
    ...(finished ? { completionTime: toTimestamp(now) } : {}),
    instances: outcome.instances,
    conditions,
  };
  const events: PlanEvent[] = [...(outcome.events ?? [])];
  const wasWaiting = old?.conditions?.some((c) => c.type === C.WaitingForLease && c.status === 'True');
  if (outcome.waiting !== undefined && !wasWaiting) {
    events.push({ type: 'Normal', reason: E.WaitingForLease, message: outcome.waiting });
  }
  if (finished) {
    events.push(
      outcome.state === 'Complete'
        ? { type: 'Normal', reason: E.OperationComplete, message: outcome.message }
        : { type: 'Warning', reason: E.OperationFailed, message: `${outcome.reason}: ${outcome.message}` },
    );
  }
  const deadline =
    op.spec.activeDeadlineSeconds !== undefined ? start + op.spec.activeDeadlineSeconds * 1000 : undefined;
  const ttl = op.spec.ttlSecondsAfterFinished;
  const requeueAfterMs = finished
    ? ttl !== undefined
      ? ttl * 1000
      : undefined
    : deadline !== undefined
      ? Math.max(0, deadline - now)
      : undefined;
  return {
    actions: outcome.actions ?? [],
    ...(operationStatusEquals(old, status) ? {} : { status }),
    events,
    ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}),
  };
}

/** A finished operation: deleted `ttlSecondsAfterFinished` after it finished, else left alone. */
function planFinished(s: OperationSnapshot): OperationPlan {
  const ttl = s.operation.spec.ttlSecondsAfterFinished;
  if (ttl === undefined) return { actions: [], events: [] };
  const finishedAt = toMillis(s.operation.status?.completionTime) ?? s.now;
  const due = Math.min(finishedAt, s.now) + ttl * 1000;
  if (s.now >= due) {
    const uid = s.operation.metadata?.uid;
    return { actions: [{ type: 'DeleteOperation', ...(uid !== undefined ? { uid } : {}) }], events: [] };
  }
  return { actions: [], events: [], requeueAfterMs: due - s.now };
}

/** Statuses equal but for key order (a settled operation writes nothing). */
export function operationStatusEquals(
  a: ExporterOperationStatus | undefined,
  b: ExporterOperationStatus | undefined,
): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)),
        )
      : v,
  );
}
