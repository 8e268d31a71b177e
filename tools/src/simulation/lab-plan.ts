/**
 * The random lab of one seed: classes with random binding modes and reclaim policies, sets
 * with random sizes and strategies, a timeline of operations (leases arriving and ending, template
 * changes, class edits that break and fix parameters, resizes, set deletions, pauses, controller
 * restarts, Pod crashes, clock skew, tampered status, the pool operations (scale-in order,
 * update strategy, requested recycle); ExporterOperations; for some seeds a lease load with a daily or
 * weekly pattern, lease-load.ts), the fault rates of the API and the stretches in
 * which it refuses one kind of write. Some seeds add two sets whose selectors overlap (leases that
 * select both; in most of them windows raise both sets' buffers at once) and start without
 * Jumpstarter's Lease CRD, which appears later. Some sets forecast from a seeded demand history (mode
 * Apply or ForecastOnly), and some seeds delete a set while ExporterOperations on it are under way.
 * Pure: the seed decides everything.
 */
import { planLeaseLoad, type LoadPattern } from './lease-load';
import { seededRandom, type Random } from './random';

export interface ClassPlan {
  readonly name: string;
  readonly bindingMode: 'Immediate' | 'WaitForFirstConsumer';
  readonly reclaimPolicy: 'Delete' | 'Retain';
}

export interface SetPlan {
  readonly name: string;
  readonly className: string;
  readonly minReplicas: number;
  readonly minAvailableReplicas: number;
  /** 0 = no ceiling. */
  readonly maxReplicas: number;
  /** Cluster seconds. */
  readonly cooldownSeconds: number;
  readonly recycleStrategy: 'ExitAndReplace' | 'InPlaceReuse';
  /** Recorded revisions kept that no instance runs; undefined: the default (10). */
  readonly revisionHistoryLimit?: number;
  /**
   * One of the overlapping pair: no floor or warm buffer, its own class (never edited, so nothing but
   * leases and failures boots a VM in it), and template labels that leases of `pool: shared` select.
   */
  readonly overlap?: boolean;
  /**
   * `spec.forecast` and the demand history the seed records for the set before it starts (plain
   * sets only: the overlapping pair's boots are the leases', lease-double-boot).
   */
  readonly forecast?: ForecastPlan;
}

/**
 * A set's forecast: its mode and cap, and the demand history seeded in its ConfigMap — `peak` leases
 * held at once in every hour of the last 15 days, and no arrivals (demand-seed.ts says why), so the
 * forecast asks for `peak` minus the leases held, from the first pass: a minute of chaos records
 * no hour a forecast reads (it reads the same hour days and weeks back).
 */
export interface ForecastPlan {
  readonly mode: 'Apply' | 'ForecastOnly';
  readonly maxExtra?: number;
  readonly peak: number;
}

/** The label the overlapping sets share, and that shared leases select. */
export const SHARED_LABEL = { pool: 'shared' } as const;

export type LabOperation =
  | { readonly kind: 'lease'; readonly set: string; readonly durationSeconds: number }
  /** Releases the active lease at `pick` × (number of active leases), if any. */
  | { readonly kind: 'release'; readonly pick: number }
  | { readonly kind: 'template'; readonly set: string; readonly revision: number }
  /** Sets the class's memory; `valid: false` sets one the provisioner rejects. */
  | { readonly kind: 'class-edit'; readonly className: string; readonly valid: boolean }
  | {
      readonly kind: 'resize';
      readonly set: string;
      readonly minAvailableReplicas: number;
      readonly maxReplicas: number;
    }
  | { readonly kind: 'delete-set'; readonly set: string }
  /**
   * Stops the controller and starts a new one; `abrupt`: as a crash, every request of the old process
   * fails from that moment (its writes in flight are lost), instead of a graceful stop.
   */
  | { readonly kind: 'restart-controller'; readonly abrupt: boolean }
  /** Crashes the running Pod at `pick` × (number of running Pods), if any. */
  | { readonly kind: 'crash-pod'; readonly pick: number }
  /** The next `times` Pods of the set never become ready. */
  | { readonly kind: 'never-ready'; readonly set: string; readonly times: number }
  /** Sets a machine's clock `offsetMs` off true time (minutes to an hour, either way; §3.17). */
  | { readonly kind: 'clock-skew'; readonly machine: SkewedMachine; readonly offsetMs: number }
  /** Writes a status field of the set with an out-of-range or future value (§3.19); `pick` chooses it. */
  | { readonly kind: 'tamper-status'; readonly set: string; readonly pick: number }
  /** A lease selecting both overlapping sets (`SHARED_LABEL`). */
  | { readonly kind: 'shared-lease'; readonly durationSeconds: number }
  /**
   * Pins the set (`spec.pinnedRevision`): to one of its recorded revisions (at `pick` ×
   * their number, by name or by hash), to a name no revision has, or unpins it.
   */
  | {
      readonly kind: 'pin';
      readonly set: string;
      readonly target: 'recorded' | 'unknown' | 'none';
      readonly pick: number;
    }
  /** Sets `spec.paused` (SPEC §3.20). */
  | { readonly kind: 'pause'; readonly set: string; readonly paused: boolean }
  /** Jumpstarter's Lease CRD is applied (and Jumpstarter starts): the seed began without it. */
  | { readonly kind: 'lease-crd-appears' }
  /** Sets one pool-operation field of the set. */
  | { readonly kind: 'pool-ops'; readonly set: string; readonly change: PoolOpsChange }
  /**
   * An ExporterOperation: on the set's instance at `pick` × (number of instances), or on every
   * instance of the set by selector. A Disable is followed by an Enable of the whole set, so the calm
   * phase finds no instance disabled by hand.
   */
  | {
      readonly kind: 'exporter-operation';
      readonly set: string;
      readonly operation: 'Recycle' | 'Drain' | 'Disable' | 'Enable';
      readonly bySelector: boolean;
      readonly pick: number;
      readonly deadlineSeconds?: number;
      readonly ttlSeconds?: number;
    };

/** One change of a set's pool-operation fields; `null` removes the field (back to the default). */
export type PoolOpsChange =
  | {
      readonly field: 'scaleInStrategy';
      readonly value: {
        readonly basePolicy: 'Oldest' | 'Newest' | 'Random';
        /** Instances of a changed template (the `revision` label) go first. */
        readonly byRevision: boolean;
      } | null;
    }
  | {
      readonly field: 'updateStrategy';
      readonly value: {
        readonly type: 'Proactive' | 'Opportunistic' | 'Unmanaged';
        readonly maxSurge?: number | string;
        readonly maxUnavailable?: number | string;
      } | null;
    }
  /** A recycle requested `aheadMs` after now on the API server's clock (0: now). */
  | { readonly field: 'recycleRequestedAt'; readonly aheadMs: number }
  /**
   * One scheduled window every `everyMinutes` minutes, raising the buffer to `minAvailable` (at most
   * 2; applied at most the set's maxReplicas then, as admission wants, so a later resize below it is
   * refused, as admission refuses it to a person).
   */
  | {
      readonly field: 'schedules';
      readonly value: {
        readonly everyMinutes: number;
        readonly durationSeconds: number;
        readonly minAvailable: number;
      } | null;
    };

/** The machines whose clocks the simulation sets off true time. */
export type SkewedMachine = 'apiServer' | 'kubelet' | 'controller';

export interface TimedOperation {
  /** Cluster milliseconds after the lab started. */
  readonly atMs: number;
  readonly operation: LabOperation;
}

/**
 * A write the API refuses for a stretch of the chaos, then accepts again: a 403 as RBAC answers for one
 * resource and verb, or a 422 as the API answers a config Secret over 1 MiB.
 */
export interface Refusal {
  readonly code: 403 | 422;
  readonly resource: 'exporters' | 'pods' | 'secrets';
  readonly verb: 'create' | 'patch' | 'delete';
  /** Cluster milliseconds after the lab started. */
  readonly fromMs: number;
  readonly toMs: number;
}

/** The writes a 403 stretch may refuse: each write the controller makes for a set. */
const REFUSABLE: readonly Pick<Refusal, 'resource' | 'verb'>[] = [
  { resource: 'exporters', verb: 'create' },
  { resource: 'exporters', verb: 'patch' },
  { resource: 'exporters', verb: 'delete' },
  { resource: 'pods', verb: 'create' },
  { resource: 'pods', verb: 'delete' },
  { resource: 'secrets', verb: 'create' },
  { resource: 'secrets', verb: 'patch' },
];

/** A 403 stretch in about a third of the seeds, a 422 one in another third: most seeds run without. */
function planRefusals(random: Random, chaosMs: number): Refusal[] {
  const stretch = () => {
    const fromMs = random.int(0, Math.floor(chaosMs * 0.6));
    // Lifted before the calm phase (which clears every fault), so the lift judges the reports.
    return { fromMs, toMs: Math.max(fromMs, Math.min(chaosMs - 1_000, fromMs + random.int(15_000, 40_000))) };
  };
  const refusals: Refusal[] = [];
  if (random.chance(0.3)) refusals.push({ code: 403, ...random.pick(REFUSABLE), ...stretch() });
  if (random.chance(0.3)) {
    refusals.push({ code: 422, resource: 'secrets', verb: random.pick(['create', 'patch']), ...stretch() });
  }
  return refusals;
}

export interface FaultPlan {
  /** Per request of the controller, for create/patch/delete/list: 409, 429, 500, 503. */
  readonly errorRate: number;
  readonly latencyMs: number;
  readonly latencyRate: number;
  /** Watches of the controller cut after a few events, cut mid-line, and answered 410. */
  readonly dropWatches: number;
  readonly truncateWatches: number;
  readonly expireWatches: number;
  readonly refusals: readonly Refusal[];
  /** Cluster ms after the start at which the Lease CRD appears; 0: installed from the start. */
  readonly leaseCrdLateMs: number;
}

export interface LabPlan {
  readonly seed: number;
  readonly classes: readonly ClassPlan[];
  /** The class of the overlapping sets, when the seed has them. */
  readonly overlapClass?: ClassPlan;
  readonly sets: readonly SetPlan[];
  readonly operations: readonly TimedOperation[];
  readonly faults: FaultPlan;
  /** Cluster milliseconds of chaos (operations and faults) before the calm phase. */
  readonly chaosMs: number;
  /** The shape of the lease load beyond the random leases (lease-load.ts). */
  readonly loadPattern: LoadPattern;
}

export interface LabPlanOptions {
  /** @default 60_000 */
  readonly chaosMs?: number;
  /** Most sets. @default 4 */
  readonly maxSets?: number;
  /** Operations per cluster minute, on average. @default 40 */
  readonly operationsPerMinute?: number;
}

function planClass(random: Random, index: number): ClassPlan {
  return {
    name: `class-${index}`,
    bindingMode: random.chance(0.3) ? 'WaitForFirstConsumer' : 'Immediate',
    reclaimPolicy: random.chance(0.15) ? 'Retain' : 'Delete',
  };
}

function planSet(random: Random, index: number, classes: readonly ClassPlan[]): SetPlan {
  const minReplicas = random.chance(0.6) ? 0 : random.int(1, 2);
  const minAvailableReplicas = random.int(0, 4);
  const floor = Math.max(minReplicas, minAvailableReplicas);
  return {
    name: `set-${index}`,
    className: random.pick(classes).name,
    minReplicas,
    minAvailableReplicas,
    maxReplicas: random.chance(0.2) ? 0 : floor + random.int(1, 4),
    cooldownSeconds: random.int(2, 20),
    recycleStrategy: random.chance(0.4) ? 'InPlaceReuse' : 'ExitAndReplace',
    // No draw of its own (the seeds' other draws stay as they were): 0, 1, 2 or the default.
    ...(index % 4 < 3 ? { revisionHistoryLimit: index % 4 } : {}),
  };
}

/** The overlapping pair: both unbounded or roomy, so their ceilings rarely decide who serves. */
function planOverlapSet(random: Random, name: string, className: string): SetPlan {
  return {
    name,
    className,
    minReplicas: 0,
    minAvailableReplicas: 0,
    maxReplicas: random.chance(0.5) ? 0 : 10,
    cooldownSeconds: random.int(2, 20),
    recycleStrategy: random.chance(0.4) ? 'InPlaceReuse' : 'ExitAndReplace',
    overlap: true,
  };
}

function planOperation(
  random: Random,
  sets: readonly SetPlan[],
  classes: readonly ClassPlan[],
): LabOperation {
  const plain = sets.filter((s) => !s.overlap);
  const overlapping = sets.some((s) => s.overlap);
  const extra = random.next();
  if (overlapping && extra < 0.15) return { kind: 'shared-lease', durationSeconds: random.int(3, 40) };
  if (extra >= 0.15 && extra < 0.2)
    return { kind: 'pause', set: random.pick(sets).name, paused: random.chance(0.6) };
  if (extra >= 0.2 && extra < 0.27) {
    // Windows go on the overlapping sets too: lease-double-boot allows the boots of their raises.
    return { kind: 'pool-ops', set: random.pick(sets).name, change: poolOps(random) };
  }
  if (extra >= 0.27 && extra < 0.32) {
    const choice = random.next();
    const target = choice < 0.6 ? 'recorded' : choice < 0.85 ? 'none' : 'unknown';
    return { kind: 'pin', set: random.pick(sets).name, target, pick: random.next() };
  }
  const set = random.pick(plain);
  const roll = random.next();
  if (roll < 0.35) return { kind: 'lease', set: set.name, durationSeconds: random.int(3, 40) };
  if (roll < 0.55) return { kind: 'release', pick: random.next() };
  if (roll < 0.62) return { kind: 'template', set: set.name, revision: random.int(1, 1000) };
  if (roll < 0.68)
    return { kind: 'class-edit', className: random.pick(classes).name, valid: random.chance(0.6) };
  if (roll < 0.76) {
    const minAvailableReplicas = random.int(0, 5);
    const floor = Math.max(set.minReplicas, minAvailableReplicas);
    return {
      kind: 'resize',
      set: set.name,
      minAvailableReplicas,
      maxReplicas: random.chance(0.2) ? 0 : floor + random.int(0, 4),
    };
  }
  if (roll < 0.79) return { kind: 'delete-set', set: set.name };
  if (roll < 0.85) return { kind: 'restart-controller', abrupt: random.chance(0.5) };
  if (roll < 0.93) return { kind: 'crash-pod', pick: random.next() };
  if (roll < 0.96) return { kind: 'never-ready', set: set.name, times: random.int(1, 3) };
  if (roll < 0.98) {
    const machine = random.pick(['apiServer', 'kubelet', 'controller'] as const);
    const minutes = random.int(1, 60) * (random.chance(0.5) ? 1 : -1);
    return { kind: 'clock-skew', machine, offsetMs: minutes * 60_000 };
  }
  return { kind: 'tamper-status', set: set.name, pick: random.next() };
}

/** A random pool-operation change: each field, valid values only (admission refuses the others). */
function poolOps(random: Random): PoolOpsChange {
  const roll = random.next();
  if (roll < 0.3) {
    return {
      field: 'scaleInStrategy',
      value: random.chance(0.2)
        ? null
        : {
            basePolicy: random.pick(['Oldest', 'Newest', 'Random'] as const),
            byRevision: random.chance(0.5),
          },
    };
  }
  if (roll < 0.65) {
    if (random.chance(0.15)) return { field: 'updateStrategy', value: null };
    const type = random.pick(['Proactive', 'Proactive', 'Opportunistic', 'Unmanaged'] as const);
    if (type !== 'Proactive') return { field: 'updateStrategy', value: { type } };
    const amount = (max: number) => (random.chance(0.5) ? random.int(0, max) : `${random.int(0, 4) * 25}%`);
    const maxSurge = amount(3);
    const maxUnavailable = amount(2);
    const bothZero = [0, '0%'].includes(maxSurge) && [0, '0%'].includes(maxUnavailable);
    return {
      field: 'updateStrategy',
      value: { type, maxSurge, maxUnavailable: bothZero ? 1 : maxUnavailable },
    };
  }
  if (roll < 0.85) {
    if (random.chance(0.2)) return { field: 'schedules', value: null };
    const everyMinutes = random.pick([2, 3, 5] as const);
    return {
      field: 'schedules',
      value: {
        everyMinutes,
        durationSeconds: random.int(20, everyMinutes * 60),
        minAvailable: random.int(0, 2),
      },
    };
  }
  return { field: 'recycleRequestedAt', aheadMs: random.chance(0.7) ? 0 : random.int(1_000, 10_000) };
}

/**
 * ExporterOperations, about 4 per cluster minute, drawn from a stream of their own so the rest of a
 * seed's plan is the same with or without them.
 */
function planExporterOperations(seed: number, sets: readonly SetPlan[], chaosMs: number): TimedOperation[] {
  const random = seededRandom((seed ^ 0x5eed0e7a) >>> 0);
  const planned: TimedOperation[] = [];
  for (let at = 0; ;) {
    at += (-Math.log(1 - random.next()) * 60_000) / 4;
    if (at >= chaosMs) break;
    const set = random.pick(sets).name;
    const drawn = random.pick(['Recycle', 'Recycle', 'Drain', 'Disable'] as const);
    // A Disable gets a deadline, and the Enable of the whole set comes 5 to 15 s after it: a Disable
    // still waiting for a lease could otherwise land after the Enable and leave the instance disabled.
    const enableAt = Math.round(at) + random.int(7_000, 25_000);
    const operation = drawn === 'Disable' && enableAt >= chaosMs ? 'Recycle' : drawn;
    const deadlineSeconds =
      operation === 'Disable'
        ? Math.floor((enableAt - Math.round(at)) / 1000) - 5
        : random.chance(0.4)
          ? random.int(2, 30)
          : undefined;
    const ttlSeconds = random.chance(0.5) ? random.int(0, 20) : undefined;
    planned.push({
      atMs: Math.round(at),
      operation: {
        kind: 'exporter-operation',
        set,
        operation,
        bySelector: random.chance(0.3),
        pick: random.next(),
        ...(deadlineSeconds !== undefined ? { deadlineSeconds } : {}),
        ...(ttlSeconds !== undefined ? { ttlSeconds } : {}),
      },
    });
    if (operation === 'Disable') {
      planned.push({
        atMs: enableAt,
        operation: { kind: 'exporter-operation', set, operation: 'Enable', bySelector: true, pick: 0 },
      });
    }
  }
  return planned;
}

/**
 * Forecasts on about a third of the plain sets (a stream of their own): mode Apply mostly, ForecastOnly
 * sometimes (which must change nothing), a seeded peak of 1–6 leases and, half the time, a `maxExtra` cap.
 */
function planForecast(random: Random): ForecastPlan | undefined {
  if (!random.chance(0.3)) return undefined;
  const mode = random.chance(0.8) ? 'Apply' : 'ForecastOnly';
  const peak = random.int(1, 6);
  return random.chance(0.5) ? { mode, peak, maxExtra: random.int(0, 2) } : { mode, peak };
}

/**
 * For 60 % of the seeds with the overlapping pair (a stream of their own): windows on both sets at once,
 * early in the chaos, on the same cron, so their raises overlap in time and each set boots for its own.
 */
function planOverlapSchedules(seed: number, chaosMs: number): TimedOperation[] {
  const random = seededRandom((seed ^ 0x0fe71a95) >>> 0);
  if (!random.chance(0.6)) return [];
  const everyMinutes = random.pick([2, 3, 5] as const);
  const at = random.int(1_000, Math.max(1_000, Math.floor(chaosMs / 3)));
  return (['overlap-a', 'overlap-b'] as const).map((set, i) => ({
    atMs: Math.min(chaosMs - 1, at + i * random.int(0, 2_000)),
    operation: {
      kind: 'pool-ops',
      set,
      change: {
        field: 'schedules',
        value: {
          everyMinutes,
          durationSeconds: random.int(30, everyMinutes * 60),
          minAvailable: random.int(1, 2),
        },
      },
    },
  }));
}

/**
 * In 40 % of the seeds (a stream of their own), a set is deleted while an ExporterOperation on it is
 * under way, and another arrives after the delete: both must end (Complete or Failed, with a reason)
 * while the set drains.
 */
function planDeleteDuringOperations(
  seed: number,
  sets: readonly SetPlan[],
  chaosMs: number,
): TimedOperation[] {
  const random = seededRandom((seed ^ 0x0de1e7e5) >>> 0);
  if (!random.chance(0.4) || chaosMs < 30_000) return [];
  const set = random.pick(sets).name;
  const kinds = ['Recycle', 'Drain', 'Disable', 'Enable'] as const;
  const operation = (atMs: number): TimedOperation => ({
    atMs,
    operation: {
      kind: 'exporter-operation',
      set,
      operation: random.pick(kinds),
      bySelector: random.chance(0.5),
      pick: random.next(),
    },
  });
  const first = random.int(5_000, chaosMs - 25_000);
  const deleteAt = first + random.int(300, 3_000);
  return [
    operation(first),
    { atMs: deleteAt, operation: { kind: 'delete-set', set } },
    operation(deleteAt + random.int(500, 8_000)),
  ];
}

export function planLab(seed: number, options: LabPlanOptions = {}): LabPlan {
  const random = seededRandom(seed);
  const chaosMs = options.chaosMs ?? 60_000;
  const classes = Array.from({ length: random.int(1, 2) }, (_, i) => planClass(random, i));
  const forecasts = seededRandom((seed ^ 0x4f3ca57) >>> 0);
  const plainSets = Array.from({ length: random.int(1, options.maxSets ?? 4) }, (_, i) =>
    planSet(random, i, classes),
  ).map((set) => {
    const forecast = planForecast(forecasts);
    return forecast ? { ...set, forecast } : set;
  });
  const overlapClass: ClassPlan | undefined = random.chance(0.4)
    ? { ...planClass(random, classes.length), name: 'class-overlap' }
    : undefined;
  const sets = overlapClass
    ? [
        ...plainSets,
        planOverlapSet(random, 'overlap-a', overlapClass.name),
        planOverlapSet(random, 'overlap-b', overlapClass.name),
      ]
    : plainSets;
  const leaseCrdLateMs = random.chance(0.1) ? Math.min(random.int(2_000, 20_000), chaosMs / 2) : 0;
  const perMinute = options.operationsPerMinute ?? 40;
  const operations: TimedOperation[] = [];
  // Arrivals of a Poisson process: exponential gaps with the given mean rate.
  for (let at = 0; ;) {
    at += (-Math.log(1 - random.next()) * 60_000) / perMinute;
    if (at >= chaosMs) break;
    // Rounded within the chaos (a time just below its end would round onto it).
    const atMs = Math.min(chaosMs - 1, Math.round(at));
    operations.push({ atMs, operation: planOperation(random, sets, classes) });
  }
  operations.push(...planExporterOperations(seed, plainSets, chaosMs));
  operations.push(...planDeleteDuringOperations(seed, plainSets, chaosMs));
  if (overlapClass) operations.push(...planOverlapSchedules(seed, chaosMs));
  const load = planLeaseLoad(
    seed,
    plainSets.map((s) => s.name),
    chaosMs,
  );
  for (const { atMs, set, durationSeconds } of load.leases) {
    operations.push({ atMs, operation: { kind: 'lease', set, durationSeconds } });
  }
  if (leaseCrdLateMs > 0) {
    operations.push({ atMs: leaseCrdLateMs, operation: { kind: 'lease-crd-appears' } });
  }
  operations.sort((a, b) => a.atMs - b.atMs);
  return {
    seed,
    classes,
    ...(overlapClass ? { overlapClass } : {}),
    sets,
    operations,
    faults: {
      errorRate: random.pick([0, 0.01, 0.02, 0.04]),
      latencyMs: random.int(0, 20),
      latencyRate: random.pick([0, 0.05, 0.2]),
      dropWatches: random.int(0, 3),
      truncateWatches: random.int(0, 2),
      expireWatches: random.int(0, 2),
      refusals: planRefusals(random, chaosMs),
      leaseCrdLateMs,
    },
    chaosMs,
    loadPattern: load.pattern,
  };
}
