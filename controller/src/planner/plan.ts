/**
 * The pure planner (SPEC §3, ARCHITECTURE example 8): one ExporterSet's world in (a
 * {@link PlannerSnapshot}), the writes to make, the status to report, the events to emit and when to
 * look again out. No I/O and no clock: `snapshot.now` is the time, so a pass replays exactly.
 *
 * Rules, in priority order: a rule overrides every rule below it.
 *
 *  1. Provisioner (§3.13): a set whose class names another provisioner is not ours — no actions, no
 *     status.
 *  2. Deletion (§3.12): a set being deleted that carries our drain finalizer drains: nothing new,
 *     unleased instances leave (rule 6's graceful way; reclaimPolicy Retain releases instances that
 *     served a lease and whose Pod ended), leased ones stay until their leases end, and the finalizer
 *     goes once no instance is left. Without the finalizer there is nothing to do.
 *  3. Missing class (§3.13): `Available=False/VirtualTargetClassNotFound`, and no change at all.
 *  4. Finalizer: a set of ours gets the drain finalizer first.
 *  5. Leases (§3.7): a leased instance is never disabled, deleted, released or counted as supply.
 *  6. Ownership (§3.11, §3.16): the set's instances are the Exporters it controls (ownerReference with
 *     its uid), whatever their labels or names — those upstream's controller made are counted, recycled,
 *     scaled down and drained like ours, and get our labels (set, revision; their Pods and config
 *     Secrets too), an unlabelled revision taken as current (adoption.ts). An Exporter labelled with
 *     the set but without our controller ownerReference is detached — ignored, so the rules replace
 *     it; one disabled by hand is kept, never a victim and never supply.
 *  7. Gates on new instances (existing ones keep serving): invalid merged parameters
 *     (`ParametersValid=False` with the provisioner's findings), a selector that does not select the
 *     template labels and a spec that breaks the set's own rules (`SpecValid=False`) create nothing — a set
 *     admitted by a CRD without our rules (a name too long for the set label, template labels or
 *     annotations Kubernetes refuses) would otherwise retry creates the API server always refuses;
 *     the startup-failure backoff (§3.9: 10 s doubling to 5 min after each Pod that ended before its
 *     exporter was ready) starts no new Pod.
 *  8. Leaving instances: ones we disabled are deleted once no lease names them; with ExitAndReplace an
 *     instance whose Pod ended is deleted (§3.8 recycle, or a failed one replaced); with InPlaceReuse
 *     its ended Pod is deleted and rendered again. The rules below refill.
 *  9. Floor, warm buffer, demand (§3.1–3.3): realised supply (available + starting) must reach
 *     minAvailableReplicas + pending leases, and the instances minReplicas; current standbys are
 *     promoted first, then instances created. With WaitForFirstConsumer instances are standbys and a
 *     waiting lease gets one promoted (§3.6).
 * 10. Ceiling (§3.4): never more than maxReplicas instances, counting every one not being deleted
 *     and every create in flight; a standby is promoted only when the instances that run or will
 *     leave it room; `Scaling=False/MaxReplicasReached` when the rules want more.
 * 11. Burst (§3.5): creates in flight plus this pass's never exceed maxBurst (the executor sends them
 *     in slow-start batches).
 * 12. Standby (§3.6): when nothing enabled would remain, one standby Exporter is kept or created, so a
 *     lease waits Pending instead of ending Unsatisfiable.
 * 13. Scale-down (§3.7): surplus opens a window persisted in status; once it lasted scaleDownCooldown
 *     the victims (standbys and never-ready first, then offline, then idle, newest first; outdated
 *     before current) go down to the largest need seen in the window, in one step.
 * 14. Rollout (§3.14): outdated instances the rules need get current replacements first (a surge of
 *     25% of the pool by default); outdated surplus goes as soon as the ready supply holds without it;
 *     at the ceiling one outdated instance goes first. Leased ones are replaced after their lease.
 * 15. Names (§3.10): `<set>-<n>`, n from status.nextOrdinal and above every ordinal seen on an
 *     instance, a create in flight or a Lease, never reused. Ordinals are for the names we create: an
 *     adopted name of another shape (`<set>-x7k2p`) has none and moves nothing.
 * 16. Pods and config Secrets: an instance that should have a Pod (not a standby) gets one once its
 *     Exporter has a credential and an endpoint; a live Pod's config Secret is re-synced when it is
 *     missing or differs from what the reconciler rendered.
 * 17. Idle is quiet (§3.15): a settled pool plans no action, a status equal to its own and no timer
 *     except the next real deadline (cooldown end, backoff end, a lease's beginTime).
 */
import {
  DRAIN_FINALIZER,
  Defaults,
  Labels,
  formatIssue,
  instanceOrdinal,
  instanceName,
  matchesSelector,
  parseDuration,
  selectorToString,
  tryParseDuration,
  validateExporterSet,
  validateExporterSetReferences,
  type ExporterSet,
  type ExporterSetStatus,
  type Lease,
  type Provisioner,
  type VirtualTargetClass,
  type ScaleReason,
} from 'virtual-exporters/internal';
import { ACTION_ORDER, type Action } from './actions';
import { labelInstance } from './adoption';
import { desiredExporter, instanceLabels, promotePatch } from './exporter';
import { actionEvents, conditionEvents, startupFailureEvents, type PlanEvent } from './events';
import {
  classifyInstance,
  inFlightNames,
  type ClassifyContext,
  type InFlightNames,
  type InstanceView,
} from './instances';
import {
  endedLeaseNames,
  everLeasedExporterNames,
  leasedExporterNames,
  pendingDemand,
  type PendingDemand,
} from './leases';
import type { Member, MemberKind } from './pool';
import { retire } from './retire';
import { currentRevision } from './revision';
import { decideScale, type ScaleDecision } from './scaling';
import { setConditions, type ConditionFacts } from './set-conditions';
import { credentialGraceMs, credentialIssued } from './credential-wait';
import {
  resolveOptions,
  toMillis,
  toTimestamp,
  type InFlightCreate,
  type PlannerOptions,
  type PlannerSnapshot,
} from './snapshot';
import {
  backoffDelay,
  settleStartupFailures,
  startupFailureState,
  type StartupFailureState,
} from './startup-failures';
import { statusCounters } from './status';
import { nameOf } from './wire-guards';

export interface Plan {
  /** The writes, in the order to apply them (see actions.ts). */
  readonly actions: readonly Action[];
  /** The whole desired status; undefined when the set is not this controller's to report on. */
  readonly status?: ExporterSetStatus;
  /** Look at the set again after this long even if nothing changes; undefined: only on changes. */
  readonly requeueAfterMs?: number;
  readonly events: readonly PlanEvent[];
  /** Why the planner left the set alone, when it did. */
  readonly ignored?: string;
}

/** The spec with defaults applied. */
interface SpecValues {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly minAvailable: number;
  readonly cooldownMs: number;
  readonly inPlaceReuse: boolean;
  readonly waitForFirstConsumer: boolean;
  readonly retain: boolean;
}

/** What every branch of the planner reads. */
interface World {
  readonly set: ExporterSet;
  readonly cls: VirtualTargetClass | undefined;
  readonly provisioner: Pick<Provisioner, 'name' | 'validate'>;
  readonly now: number;
  readonly options: PlannerOptions;
  readonly spec: SpecValues;
  readonly revision?: string;
  readonly inFlight: InFlightNames;
  /** The set's own instances: not detached, not being deleted. */
  readonly owned: readonly InstanceView[];
  /** Creates in flight that the cache does not show yet. */
  readonly virtualCreates: readonly InFlightCreate[];
  readonly inFlightCreates: number;
  readonly demand: PendingDemand;
  readonly firstOrdinal: number;
}

function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function specValues(set: ExporterSet, cls: VirtualTargetClass | undefined): SpecValues {
  const spec = set.spec ?? ({} as ExporterSet['spec']);
  return {
    minReplicas: count(spec.minReplicas, Defaults.minReplicas),
    maxReplicas: count(spec.maxReplicas, Defaults.maxReplicas),
    minAvailable: count(spec.minAvailableReplicas, Defaults.minAvailableReplicas),
    cooldownMs:
      tryParseDuration(spec.scaleDownCooldown ?? Defaults.scaleDownCooldown) ??
      parseDuration(Defaults.scaleDownCooldown),
    inPlaceReuse: spec.recycleStrategy === 'InPlaceReuse',
    waitForFirstConsumer: cls?.spec?.bindingMode === 'WaitForFirstConsumer',
    retain: cls?.spec?.reclaimPolicy === 'Retain',
  };
}

/**
 * Ordinals from here on are never issued (a trillion creates away): a name beyond it cannot be an old
 * instance of the set, so it does not move the counter — else one hostile Lease naming
 * `<set>-9007199254740991` would leave no safe name to issue.
 */
const MAX_ORDINAL = 2 ** 40;

/**
 * The lowest ordinal no name can collide with (rule 15): status.nextOrdinal, and one above every
 * ordinal on an Exporter of the snapshot (owned or labelled; detached and deleting ones too), a create
 * in flight, or a Lease's `status.exporterRef` — so a lost status never makes a name point at a new
 * instance.
 *
 * A name `generateName` made (upstream's instances, `<set>-` and five characters) can be all digits,
 * `<set>-24567`: it reads as an ordinal and moves the counter past it, so the name is never issued
 * again once that instance is gone. That costs at most a jump to 100000 (five digits), harmless.
 * Names of any other shape move nothing.
 *
 * Only the Exporter a Lease was assigned counts, not the one its spec pins: `status` is written by
 * Jumpstarter alone (a subresource), a pin by anyone who may create Leases, so made-up pins would push
 * the set's ordinals at will. A pin cannot take a later instance of that name either: Jumpstarter
 * ends a Lease pinned to an Exporter that does not exist at once (INTEROP §2, `ExporterNotFound`), and
 * one pinned to an instance that exists is assigned it (then `status.exporterRef` names it) or waits
 * on it, while the Exporter itself keeps its ordinal counted.
 */
function firstFreeOrdinal(set: ExporterSet, names: Iterable<string>, leases: readonly Lease[]): number {
  const setName = set.metadata?.name ?? '';
  let next = count(set.status?.nextOrdinal, 0);
  const see = (name: string | undefined): void => {
    const ordinal = name === undefined ? undefined : instanceOrdinal(setName, name);
    if (ordinal !== undefined && ordinal < MAX_ORDINAL) next = Math.max(next, ordinal + 1);
  };
  for (const name of names) see(name);
  for (const lease of leases) see(nameOf(lease.status?.exporterRef));
  return next;
}

function observe(snapshot: PlannerSnapshot): World {
  const { set, now } = snapshot;
  const cls = snapshot.virtualTargetClass;
  const revision = cls ? currentRevision(set, cls) : undefined;
  const inFlight = inFlightNames(snapshot.inFlight);
  const context: ClassifyContext = {
    set,
    revision,
    leased: leasedExporterNames(snapshot.leases),
    everLeased: everLeasedExporterNames(snapshot.leases),
    endedLeases: endedLeaseNames(snapshot.leases),
    inFlight,
    startup: { now, timeoutMs: resolveOptions(snapshot.options).startupTimeoutMs },
  };
  const views = snapshot.instances.map((instance) => classifyInstance(instance, context));
  const known = new Set(views.map((v) => v.name));
  const creating = snapshot.inFlight?.creating ?? [];
  const labels = instanceLabels(set, revision ?? set.status?.templateRevision ?? '', false);
  return {
    set,
    cls,
    provisioner: snapshot.provisioner,
    now,
    options: resolveOptions(snapshot.options),
    spec: specValues(set, cls),
    ...(revision !== undefined ? { revision } : {}),
    inFlight,
    owned: views.filter((v) => v.state !== 'detached' && v.state !== 'deleting'),
    virtualCreates: creating.filter((c) => !known.has(c.name)),
    inFlightCreates: creating.length,
    demand: pendingDemand(snapshot.leases, labels, now),
    firstOrdinal: firstFreeOrdinal(set, [...known, ...creating.map((c) => c.name)], snapshot.leases),
  };
}

export function plan(snapshot: PlannerSnapshot): Plan {
  const world = observe(snapshot);
  const { cls, set } = world;
  const provisioner = cls?.spec?.provisioner;
  if (cls !== undefined && provisioner !== world.provisioner.name) {
    return {
      actions: [],
      events: [],
      ignored: `VirtualTargetClass "${cls.metadata?.name}" uses provisioner "${provisioner}"; this controller runs "${world.provisioner.name}"`,
    };
  }
  if (set.metadata?.deletionTimestamp !== undefined) return planDrain(world);
  if (cls === undefined) return planClassMissing(world);
  return planPool(world, cls);
}

// --- status -------------------------------------------------------------------------------------

interface PersistedFields {
  readonly nextOrdinal: number;
  readonly window?: { readonly start: number; readonly target: number };
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  readonly templateRevision?: string;
}

/** The persisted fields as the status has them (for branches that change nothing). */
function persistedAsIs(world: World): PersistedFields {
  const status = world.set.status;
  const start = toMillis(status?.scaleDownWindowStart);
  const last = toMillis(status?.lastStartupFailureTime);
  const revision = world.revision ?? status?.templateRevision;
  return {
    nextOrdinal: world.firstOrdinal,
    ...(start !== undefined && status?.scaleDownTarget !== undefined
      ? { window: { start, target: status.scaleDownTarget } }
      : {}),
    startupFailures: count(status?.startupFailures, 0),
    ...(last !== undefined ? { lastStartupFailureTime: last } : {}),
    ...(revision !== undefined ? { templateRevision: revision } : {}),
  };
}

function selectorText(set: ExporterSet): string {
  try {
    return selectorToString(set.spec?.selector);
  } catch {
    return '';
  }
}

function buildStatus(
  world: World,
  facts: Omit<
    ConditionFacts,
    | 'counters'
    | 'minReplicas'
    | 'maxReplicas'
    | 'minAvailable'
    | 'warmAvailable'
    | 'standbyInBuffer'
    | 'starting'
    | 'offline'
    | 'provisionerName'
  >,
  persisted: PersistedFields,
): ExporterSetStatus {
  const { set, now, spec } = world;
  const counters = statusCounters(world.owned);
  const generation = set.metadata?.generation;
  const conditions = setConditions(
    set.status?.conditions,
    {
      ...facts,
      provisionerName: world.provisioner.name,
      counters,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      minAvailable: spec.minAvailable,
      warmAvailable: world.owned.filter((v) => v.state === 'available').length,
      standbyInBuffer: spec.waitForFirstConsumer ? (counters.standbyReplicas ?? 0) : 0,
      starting: counters.startingReplicas ?? 0,
      offline: world.owned
        .filter((v) => v.state === 'offline')
        .map((v) => v.name)
        .sort(),
    },
    now,
    generation,
  );
  return {
    ...counters,
    selector: selectorText(set),
    conditions,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    pendingLeases: world.demand.pending.length,
    ...(persisted.templateRevision !== undefined ? { templateRevision: persisted.templateRevision } : {}),
    nextOrdinal: persisted.nextOrdinal,
    ...(persisted.window
      ? {
          scaleDownWindowStart: toTimestamp(persisted.window.start),
          scaleDownTarget: persisted.window.target,
        }
      : {}),
    startupFailures: persisted.startupFailures,
    ...(persisted.lastStartupFailureTime !== undefined
      ? { lastStartupFailureTime: toTimestamp(persisted.lastStartupFailureTime) }
      : {}),
  };
}

/** The Exporter creates and deletes among `actions`: the writes ReplicaFailure reports on. */
function replicaWrites(actions: readonly Action[]): number {
  return actions.filter((a) => a.type === 'CreateExporter' || a.type === 'DeleteExporter').length;
}

const NOTHING_PLANNED = {
  creating: 0,
  promoting: 0,
  rendering: 0,
  removing: 0,
  deferred: 0,
  replicaWrites: 0,
} as const;

function finish(
  world: World,
  actions: readonly Action[],
  status: ExporterSetStatus,
  extraEvents: readonly PlanEvent[],
  timers: readonly (number | undefined)[],
): Plan {
  const ordered = [...actions].sort((a, b) => ACTION_ORDER.indexOf(a.type) - ACTION_ORDER.indexOf(b.type));
  const due = timers.filter((t): t is number => t !== undefined && t > world.now);
  return {
    actions: ordered,
    status,
    ...(due.length > 0 ? { requeueAfterMs: Math.min(...due) - world.now } : {}),
    events: [
      ...actionEvents(ordered),
      ...extraEvents,
      ...conditionEvents(world.set.status?.conditions, status.conditions ?? []),
    ],
  };
}

// --- rule 2: deletion ---------------------------------------------------------------------------

function planDrain(world: World): Plan {
  const { set, now, spec } = world;
  if (!(set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER)) {
    return { actions: [], events: [], ignored: 'the set is being deleted and has no drain finalizer left' };
  }
  const actions: Action[] = [];
  const persisted = persistedAsIs(world);
  for (const view of world.owned) {
    const reason: ScaleReason = view.state === 'retiring' ? (view.retiringReason ?? 'drain') : 'drain';
    const action = retire(view, reason, { set, retain: spec.retain, now });
    if (action) actions.push(action);
  }
  if (world.owned.length === 0 && world.virtualCreates.length === 0)
    actions.push({ type: 'RemoveFinalizer' });
  const status = buildStatus(
    world,
    {
      ...NOTHING_PLANNED,
      ...specChecks(set),
      draining: { remaining: world.owned.length, leased: world.owned.filter((v) => v.leased).length },
      startupFailures: 0,
      backoffMs: 0,
      removing: actions.filter((a) => a.type !== 'RemoveFinalizer').length,
      replicaWrites: replicaWrites(actions),
      creatingInFlight: world.virtualCreates.length,
      retiring: 0,
      outdated: 0,
    },
    persisted,
  );
  return finish(world, actions, status, [], []);
}

// --- rule 3: missing class ----------------------------------------------------------------------

function planClassMissing(world: World): Plan {
  const [issue] = validateExporterSetReferences(world.set, undefined, () => undefined);
  const name = world.set.spec?.virtualTargetClassName ?? '';
  const persisted = persistedAsIs(world);
  const status = buildStatus(
    world,
    {
      ...NOTHING_PLANNED,
      classMissing: {
        name,
        finding: issue ? formatIssue(issue) : `VirtualTargetClass "${name}" was not found`,
      },
      ...specChecks(world.set),
      startupFailures: persisted.startupFailures,
      ...(persisted.lastStartupFailureTime !== undefined
        ? { lastStartupFailureTime: persisted.lastStartupFailureTime }
        : {}),
      backoffMs: 0,
      creatingInFlight: world.virtualCreates.length,
      retiring: 0,
      outdated: 0,
    },
    persisted,
  );
  return finish(world, [], status, [], []);
}

// --- rules 4–17: a set of ours ------------------------------------------------------------------

function member(view: InstanceView, kind: MemberKind, removable: boolean): Member {
  return {
    name: view.name,
    kind,
    enabled: view.enabled,
    current: view.current,
    createdAt: view.createdAt,
    ...(view.ordinal !== undefined ? { ordinal: view.ordinal } : {}),
    removable,
  };
}

function hasCredential(view: InstanceView): boolean {
  return credentialIssued(view.source);
}

/** Instances whose wait for their credential outlasted the grace, for `InstancesHealthy`. */
function awaitingCredential(world: World): ConditionFacts['awaitingCredential'] {
  const grace = credentialGraceMs(world.options.startupTimeoutMs);
  const waits = world.owned
    .filter((v) => v.awaiting !== undefined && v.createdAt > 0 && world.now >= v.createdAt + grace)
    .map((v) => `${v.name} waits for its ${v.awaiting}`)
    .sort();
  return waits.length > 0 ? { waits, timeoutMs: world.options.startupTimeoutMs } : undefined;
}

function sameData(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b)]);
  for (const key of keys) if ((a ?? {})[key] !== b[key]) return false;
  return true;
}

/** Findings shown in a condition, at most; the rest are counted. */
const MAX_SHOWN_FINDINGS = 5;

/**
 * The set's own rules (validateExporterSet, as at synth time and admission), as one message;
 * undefined when the set keeps them.
 */
function specFindings(set: ExporterSet): string | undefined {
  const issues = validateExporterSet(set);
  if (issues.length === 0) return undefined;
  const shown = issues.slice(0, MAX_SHOWN_FINDINGS).map(formatIssue).join('; ');
  const more = issues.length > MAX_SHOWN_FINDINGS ? `; and ${issues.length - MAX_SHOWN_FINDINGS} more` : '';
  return `${shown}${more}`;
}

/** Whether the selector selects the template labels, and the set's own rules it breaks. */
function specChecks(set: ExporterSet): Pick<ConditionFacts, 'selectorMatchesTemplate' | 'invalidSpec'> {
  const invalidSpec = specFindings(set);
  return {
    selectorMatchesTemplate: matchesSelector(set.spec?.selector, set.spec?.template?.metadata?.labels ?? {}),
    ...(invalidSpec !== undefined ? { invalidSpec } : {}),
  };
}

/** The parameter findings of the provisioner, as one message; undefined when valid. */
function parameterFindings(world: World, cls: VirtualTargetClass): string | undefined {
  const provisioner = world.provisioner;
  // validateExporterSetReferences reads only `name` and `validate` of the provisioner it looks up.
  const lookup = (name: string): Provisioner | undefined =>
    name === provisioner.name ? (provisioner as Provisioner) : undefined;
  const issues = validateExporterSetReferences(world.set, cls, lookup);
  return issues.length > 0 ? issues.map(formatIssue).join('; ') : undefined;
}

function planPool(world: World, cls: VirtualTargetClass): Plan {
  const { set, now, spec, options } = world;
  const previous = set.status;
  const actions: Action[] = [];
  if (!(set.metadata?.finalizers ?? []).includes(DRAIN_FINALIZER)) actions.push({ type: 'AddFinalizer' });

  // Rule 7: gates.
  const startup: StartupFailureState = startupFailureState(
    {
      failures: count(previous?.startupFailures, 0),
      ...(toMillis(previous?.lastStartupFailureTime) !== undefined
        ? { lastFailureTime: toMillis(previous?.lastStartupFailureTime) }
        : {}),
    },
    world.owned,
    options,
    now,
  );
  const invalidParameters = parameterFindings(world, cls);
  const { selectorMatchesTemplate, invalidSpec } = specChecks(set);
  const canCreate = invalidParameters === undefined && selectorMatchesTemplate && invalidSpec === undefined;
  const canStartPods = canCreate && startup.backoffUntil === undefined;

  // Rules 5, 6, 8: sort the instances into kept members and leaving ones.
  const members: Member[] = [];
  const leaving: { view: InstanceView; reason: ScaleReason }[] = [];
  const replacing: InstanceView[] = [];
  for (const view of world.owned) {
    switch (view.state) {
      case 'leased':
      case 'disabledByHand':
        members.push(member(view, 'fixed', false));
        break;
      case 'retiring':
        leaving.push({ view, reason: view.retiringReason ?? 'scale-down' });
        break;
      case 'failed':
      case 'exited':
        // In place means a new Pod for the same Exporter: not for one that never got its credential.
        if (spec.inPlaceReuse && view.podPresent && !(spec.retain && view.servedLease)) {
          replacing.push(view);
          members.push(member(view, 'starting', true));
        } else {
          leaving.push({ view, reason: view.state === 'exited' && view.everReady ? 'recycle' : 'failed' });
        }
        break;
      case 'standby':
      case 'available':
      case 'offline':
      case 'starting':
        // An Exporter naming a lease the cache does not show may be leased already: not a victim.
        members.push(member(view, view.state, !view.leaseRefUnconfirmed));
        break;
      default:
        break;
    }
  }
  const setName = set.metadata?.name ?? '';
  for (const create of world.virtualCreates) {
    const ordinal = instanceOrdinal(setName, create.name);
    members.push({
      name: create.name,
      kind: create.standby ? 'standby' : 'starting',
      enabled: true,
      current: true,
      createdAt: Number.POSITIVE_INFINITY,
      ...(ordinal !== undefined ? { ordinal } : {}),
      removable: false,
    });
  }

  // Rules 9–14.
  const windowStart = toMillis(previous?.scaleDownWindowStart);
  const decision: ScaleDecision = decideScale({
    members,
    req: {
      minReplicas: spec.minReplicas,
      minAvailable: spec.minAvailable,
      pending: world.demand.pending.length,
      waitForFirstConsumer: spec.waitForFirstConsumer,
    },
    canCreate,
    canStartPods,
    ceilingRoom:
      spec.maxReplicas === 0
        ? Number.POSITIVE_INFINITY
        : spec.maxReplicas - (world.owned.length + world.virtualCreates.length),
    promotionRoom:
      spec.maxReplicas === 0 ? Number.POSITIVE_INFINITY : spec.maxReplicas - runningOrWill(world, leaving),
    burstRoom: options.maxBurst - world.inFlightCreates,
    maxReplicas: spec.maxReplicas,
    leaving: leaving.length,
    surgePercent: options.rolloutSurgePercent,
    window: {
      ...(windowStart !== undefined ? { start: windowStart } : {}),
      ...(previous?.scaleDownTarget !== undefined ? { target: previous.scaleDownTarget } : {}),
    },
    cooldownMs: spec.cooldownMs,
    now,
  });

  // Rule 15: names.
  const revision = world.revision ?? '';
  decision.creates.forEach((create, i) => {
    const ordinal = world.firstOrdinal + i;
    const name = instanceName(setName, ordinal);
    actions.push({
      type: 'CreateExporter',
      name,
      ordinal,
      standby: create.standby,
      revision,
      reason: create.reason,
      exporter: desiredExporter(set, name, ordinal, revision, create.standby),
    });
  });

  const byName = new Map(world.owned.map((v) => [v.name, v]));
  const keeper = lastEnabledKeeper(members, decision, leaving, byName);
  const removals = decision.removals.filter((r) => r.name !== keeper);
  const removed = new Set(removals.map((r) => r.name));
  const promoted = new Set(decision.promote.map((p) => p.name));
  for (const { name, reason } of decision.promote)
    actions.push({ type: 'PromoteStandby', name, reason, patch: promotePatch() });

  // Rule 16: Pods and config Secrets.
  let rendering = 0;
  for (const view of world.owned) {
    if (removed.has(view.name)) continue;
    const live =
      view.state === 'available' ||
      view.state === 'starting' ||
      view.state === 'offline' ||
      view.state === 'leased';
    const standbyLabel = view.source.exporter.metadata?.labels?.[Labels.standby] === 'true';
    if (
      live &&
      standbyLabel &&
      !view.standby &&
      !world.inFlight.promoting.has(view.name) &&
      !promoted.has(view.name)
    ) {
      // Rendered, but the label still says standby: finish the promotion.
      actions.push({ type: 'PromoteStandby', name: view.name, reason: 'demand', patch: promotePatch() });
    }
    const wantsPod = (live && !view.standby) || promoted.has(view.name);
    if (wantsPod && !view.podPresent && canStartPods && hasCredential(view)) {
      actions.push({ type: 'RenderInstance', name: view.name });
      rendering += 1;
      continue;
    }
    const podLive = view.pod === 'Pending' || view.pod === 'Running' || view.pod === 'Unknown';
    const kept = view.state !== 'retiring' && view.state !== 'failed' && view.state !== 'exited';
    if (podLive && kept && invalidParameters === undefined && hasCredential(view)) {
      const secret = view.source.configSecret;
      const desired = view.source.desiredConfigSecretData;
      if (secret === undefined || (desired !== undefined && !sameData(secret.data, desired))) {
        actions.push({ type: 'SyncConfigSecret', name: view.name });
      }
    }
  }

  // Rule 6: our labels on owned instances that lack them (adopted ones), not on those leaving.
  const leavingNames = new Set(leaving.map(({ view }) => view.name));
  for (const view of world.owned) {
    if (removed.has(view.name) || leavingNames.has(view.name) || world.inFlight.labelling.has(view.name))
      continue;
    const action = labelInstance(view, set, world.revision);
    if (action) actions.push(action);
  }

  // Rule 8: ended Pods replaced in place; leaving instances on their way.
  for (const view of replacing) {
    if (removed.has(view.name)) continue;
    const podUid = view.source.pod?.metadata?.uid;
    actions.push({ type: 'DeletePod', name: view.name, ...(podUid ? { podUid } : {}), reason: 'failed' });
  }
  const retireContext = { set, retain: spec.retain, now };
  for (const { view, reason } of leaving) {
    if (view.name === keeper) continue;
    const action = retire(view, reason, retireContext);
    if (action) actions.push(action);
  }
  for (const removal of removals) {
    const view = byName.get(removal.name);
    const action = view ? retire(view, removal.reason, retireContext) : undefined;
    if (action) actions.push(action);
  }

  // A rollout is only in progress when replacements can be made.
  const outdated = canCreate
    ? world.owned.filter(
        (v) => !v.current && v.state !== 'disabledByHand' && v.state !== 'retiring' && !removed.has(v.name),
      ).length
    : 0;
  const failures = settleStartupFailures(startup, {
    backoffOver: startup.backoffUntil === undefined,
    wantsPodStart:
      decision.promote.length > 0 ||
      decision.creates.some((c) => !c.standby) ||
      decision.deferred > 0 ||
      rendering > 0,
    anyStartingOrFailed: world.owned.some(
      (v) => v.state === 'starting' || v.state === 'failed' || v.state === 'exited',
    ),
  });
  const backoffMs = backoffDelay(failures.failures, options);
  const status = buildStatus(
    world,
    {
      ...(invalidParameters !== undefined ? { invalidParameters } : {}),
      ...(invalidSpec !== undefined ? { invalidSpec } : {}),
      selectorMatchesTemplate,
      awaitingCredential: awaitingCredential(world),
      startupFailures: failures.failures,
      ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
      ...(failures.backoffUntil !== undefined ? { backoffUntil: failures.backoffUntil } : {}),
      backoffMs,
      creating: decision.creates.length,
      promoting: decision.promote.length,
      rendering,
      removing: removals.length,
      deferred: decision.deferred,
      replicaWrites: replicaWrites(actions),
      creatingInFlight: world.virtualCreates.length,
      retiring: leaving.length,
      outdated,
      revision,
      ...(decision.window
        ? {
            window: {
              ...decision.window,
              dueAt: decision.window.start + spec.cooldownMs,
              surplus: Math.max(0, decision.surplus - removals.length),
            },
          }
        : {}),
      ...(decision.limited ? { limited: { maxReplicas: spec.maxReplicas, wanted: decision.wanted } } : {}),
    },
    {
      nextOrdinal: world.firstOrdinal + decision.creates.length,
      ...(decision.window ? { window: decision.window } : {}),
      startupFailures: failures.failures,
      ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
      templateRevision: revision,
    },
  );
  return finish(world, actions, status, startupFailureEvents(failures.newlyFailed, failures.backoffUntil), [
    decision.window ? decision.window.start + spec.cooldownMs : undefined,
    failures.backoffUntil,
    world.demand.nextBeginTime,
    nextStartupDeadline(world),
  ]);
}

/**
 * Rule 12 when no standby can be made (found by the simulation, seeds 755, 762, 852): a pass that would
 * leave nothing enabled — its last enabled instances leaving, and no create in their place because a
 * gate (invalid parameters, a class fixed but not yet seen so), the ceiling or the burst cap stops it —
 * keeps one of them, so a waiting lease stays Pending instead of ending at once (upstream Jumpstarter
 * ends a lease when no enabled Exporter matches). An idle scale-down victim is kept before a failed or
 * exited instance; the keeper leaves in the pass that can create the standby.
 */
function lastEnabledKeeper(
  members: readonly Member[],
  decision: ScaleDecision,
  leaving: readonly { readonly view: InstanceView }[],
  byName: ReadonlyMap<string, InstanceView>,
): string | undefined {
  if (decision.creates.length > 0) return undefined;
  const removed = new Set(decision.removals.map((r) => r.name));
  if (members.some((m) => m.enabled && !removed.has(m.name))) return undefined;
  const victim = decision.removals.find((r) => byName.get(r.name)?.enabled === true);
  if (victim !== undefined) return victim.name;
  const gone = leaving
    .map((l) => l.view)
    .filter((v) => v.enabled && !v.leased)
    .sort((a, b) => b.createdAt - a.createdAt || (a.name < b.name ? -1 : 1));
  return gone[0]?.name;
}

/**
 * Instances that run or will (what a promotion must fit beside under the ceiling): every one but
 * standbys and leaving ones without a live Pod (ended, or already gone), plus realised creates in
 * flight. Leaving instances whose Pod still runs count until they are deleted, as they do for creates.
 */
function runningOrWill(world: World, leaving: readonly { readonly view: InstanceView }[]): number {
  const gone = new Set(
    leaving
      .filter(({ view }) => view.pod === 'none' || view.pod === 'Failed' || view.pod === 'Succeeded')
      .map(({ view }) => view.name),
  );
  const owned = world.owned.filter((v) => !v.standby && !gone.has(v.name)).length;
  return owned + world.virtualCreates.filter((c) => !c.standby).length;
}

/**
 * The earliest moment a booting instance's startup times out, or a credential wait is named or times
 * out (a timer, so idle stays quiet otherwise).
 */
function nextStartupDeadline(world: World): number | undefined {
  let next: number | undefined;
  const grace = credentialGraceMs(world.options.startupTimeoutMs);
  for (const v of world.owned) {
    if (v.awaiting === undefined || v.createdAt <= 0) continue;
    for (const due of [v.createdAt + grace, v.createdAt + world.options.startupTimeoutMs]) {
      if (due > world.now && (next === undefined || due < next)) next = due;
    }
  }
  for (const v of world.owned) {
    if (v.state !== 'starting' || v.pod === 'none' || v.pod === 'going') continue;
    const created = toMillis(v.source.pod?.metadata?.creationTimestamp);
    if (created === undefined) continue;
    const deadline = created + world.options.startupTimeoutMs;
    if (next === undefined || deadline < next) next = deadline;
  }
  return next;
}
