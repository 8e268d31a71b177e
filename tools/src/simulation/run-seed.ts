/**
 * One seed of the randomized simulation: the seed's lab on a fresh test cluster with the
 * Jumpstarter and kubelet simulators, the real controller in-process on the cluster's clock, the API
 * faults of the plan on the controller's requests, and the plan's operations at their times. Then the
 * calm phase: faults stop, broken classes are fixed, the controller runs, every lease is released, what
 * Disable operations disabled is enabled again (an Enable operation per set), and
 * one probe lease per set arrives; the lab must converge within a bound of cluster time, with the
 * buffers raised by the windows and forecasts still in force, and every ExporterOperation on a set
 * that was deleted must have ended. The
 * invariants are checked at every change throughout. The cluster runs Strict field validation, so a
 * request with a field the API server does not know is a 400, and no 400 is allowed.
 */
import {
  jumpstarterCrds,
  Kinds,
  Labels,
  ourCrds,
  qemuProvisioner,
  type Condition,
  type ExporterSet,
  type Lease,
} from 'virtual-exporters/internal';
import {
  createLogger,
  type LogLevel,
  type Manager,
  startManager,
} from 'virtual-exporters-controller/internal';
import {
  type JumpstarterSimulator,
  type KubeObject,
  startJumpstarterSimulator,
  startTestCluster,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import { unmet } from './convergence';
import { watchRaises } from './coverage';
import { seededDemand } from './demand-seed';
import { startOperationEndings } from './operation-endings';
import type { RaisedBuffer } from './raised-buffer';
import { startClockMonitor } from './clock-invariants';
import { startRevisionMonitor } from './revision-invariants';
import { startInvariantMonitor, type Violation } from './invariants';
import { tamperPatch } from './status-tamper';
import { planLab, SHARED_LABEL, type LabOperation, type LabPlan, type LabPlanOptions } from './lab-plan';
import { refusalSteps } from './refusals';
import { startTimeline } from './timeline';
import { RecentWarnings } from './recent-warnings';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SIM_NAMESPACE = 'lab';
const CONTROLLER = 'controller';
const VALID_MEMORY = ['1Gi', '2Gi'] as const;
/**
 * The most Exporter creates one set may make within a cluster minute: far above the churn of a
 * minute of operations (leases recycling, rollouts, crashes), far below a loop without a bound.
 */
const CREATES_PER_MINUTE = 60;

export interface SeedOptions extends LabPlanOptions {
  /** Cluster clock speed. @default 50 */
  readonly speedUp?: number;
  /** Cluster milliseconds the calm phase may take to converge. @default 240_000 */
  readonly settleTimeoutMs?: number;
  /** Controller log level. @default 'silent' */
  readonly logLevel?: LogLevel;
  /** Where the controller's log lines go. @default stdout */
  readonly logDestination?: { write(line: string): void };
  /**
   * Writes the seed's timeline (timeline.ts) with the operations and the controller's debug log,
   * on cluster time, to this file: for reading how a failing seed failed.
   */
  readonly traceFile?: string;
  /**
   * Records every seed's timeline (with the controller's info log, cheaper than a trace's debug log)
   * and writes it to `<dir>/seed-<n>.trace` when the seed fails: a failure that depends on the
   * machine's load seldom fails again alone, so the run keeps what it saw.
   */
  readonly traceFailuresDir?: string;
}

export interface SeedResult {
  readonly seed: number;
  readonly violations: readonly Violation[];
  /** Operations applied, and those the API refused (e.g. a resize of a deleted set). */
  readonly operations: { readonly applied: number; readonly refused: number };
  /** How often each kind of fault fired. */
  readonly faults: Readonly<Record<string, number>>;
  readonly restarts: number;
  /** The seed's lease-load pattern (flat, daily, weekly). */
  readonly loadPattern?: string;
  /** The most Exporters one set created within a cluster minute (`unbounded-creates`). */
  readonly peakCreatesPerMinute?: number;
  /** What the seed exercised of what landed last (summary.ts `CoverageCounts`). */
  readonly coverage?: Readonly<Record<string, number>>;
  /** Cluster milliseconds from the calm phase's start to convergence (undefined: never). */
  readonly convergedAfterMs?: number;
  readonly wallMs: number;
  /**
   * The worker's heap after the seed, in MB: a worker runs seeds one after another, so anything a
   * stopped controller or cluster leaves alive shows as growth (and, unchecked, as GC stalls late in a run).
   */
  readonly heapUsedMb?: number;
}

/** Levels of the nested parameters of a deep class edit: past every JavaScript stack, within the API server's 10,000. */
const DEEP_PARAMETER_LEVELS = 5_000;

function deepParameters(): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < DEEP_PARAMETER_LEVELS; i++) value = { a: value };
  return value;
}

const waitWall = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilClock(cluster: TestCluster, at: number): Promise<void> {
  while (cluster.clock.now() < at) await waitWall(Math.min(20, Math.max(1, (at - cluster.clock.now()) / 50)));
}

/** The classes and sets of the plan, and the demand history of each forecasting set (demand-seed.ts). */
function seedObjects(cluster: TestCluster, plan: LabPlan): void {
  const classes = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'virtualtargetclasses')!;
  const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  for (const c of plan.overlapClass ? [...plan.classes, plan.overlapClass] : plan.classes) {
    cluster.store.create(classes, SIM_NAMESPACE, {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: c.name },
      spec: {
        provisioner: 'qemu.jumpstarter.dev',
        bindingMode: c.bindingMode,
        reclaimPolicy: c.reclaimPolicy,
        parameters: { arch: 'x86_64', resources: { memory: VALID_MEMORY[0] } },
      },
    });
  }
  const configMaps = cluster.registry.get('', 'v1', 'configmaps')!;
  for (const s of plan.sets) {
    const created = cluster.store.create(sets, SIM_NAMESPACE, {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterSet',
      metadata: { name: s.name },
      spec: {
        virtualTargetClassName: s.className,
        minReplicas: s.minReplicas,
        minAvailableReplicas: s.minAvailableReplicas,
        maxReplicas: s.maxReplicas,
        scaleDownCooldown: `${s.cooldownSeconds}s`,
        recycleStrategy: s.recycleStrategy,
        ...(s.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: s.revisionHistoryLimit } : {}),
        ...(s.forecast
          ? {
              forecast: {
                mode: s.forecast.mode,
                ...(s.forecast.maxExtra !== undefined ? { maxExtra: s.forecast.maxExtra } : {}),
              },
            }
          : {}),
        selector: { matchLabels: { board: s.name } },
        template: {
          metadata: { labels: { board: s.name, ...(s.overlap ? SHARED_LABEL : {}) } },
          spec: { drivers: [] },
        },
      },
    });
    if (s.forecast) {
      const demand = seededDemand(created as unknown as ExporterSet, s.forecast.peak, cluster.clock.now());
      cluster.store.create(configMaps, SIM_NAMESPACE, demand as unknown as KubeObject);
    }
  }
}

function addFaults(cluster: TestCluster, plan: LabPlan): void {
  const f = plan.faults;
  const identity = CONTROLLER;
  if (f.errorRate > 0) {
    for (const code of [409, 429, 500, 503] as const) {
      cluster.faults.add({
        kind: 'error',
        code,
        rate: f.errorRate / 4,
        identity,
        verb: ['create', 'patch', 'delete', 'list'],
      });
    }
  }
  if (f.latencyRate > 0 && f.latencyMs > 0) {
    cluster.faults.add({ kind: 'latency', ms: f.latencyMs, rate: f.latencyRate, identity });
  }
  if (f.dropWatches > 0) {
    cluster.faults.add({ kind: 'dropWatch', afterEvents: 5, times: f.dropWatches, identity });
  }
  if (f.truncateWatches > 0)
    cluster.faults.add({ kind: 'truncateWatch', times: f.truncateWatches, identity });
  if (f.expireWatches > 0) cluster.faults.add({ kind: 'expireWatch', times: f.expireWatches, identity });
}

export async function runSeed(seed: number, options: SeedOptions = {}): Promise<SeedResult> {
  const started = Date.now();
  const plan = planLab(seed, options);
  // A seed without the Lease CRD starts without Jumpstarter too (it brings the CRD): both come later.
  const leaseCrdLate = plan.faults.leaseCrdLateMs > 0;
  const isLeaseCrd = (crd: (typeof jumpstarterCrds)[number]) => crd.spec.names.kind === Kinds.Lease;
  const cluster = await startTestCluster({
    namespaces: [SIM_NAMESPACE],
    speedUp: options.speedUp ?? 50,
    ...(leaseCrdLate ? { crds: [...ourCrds, ...jumpstarterCrds.filter((crd) => !isLeaseCrd(crd))] } : {}),
    jumpstarter: !leaseCrdLate,
    kubelet: true,
    seed,
    watchTimeoutSeconds: 2,
    fieldValidation: 'Strict',
  });
  const monitor = startInvariantMonitor(cluster, {
    namespace: SIM_NAMESPACE,
    overlapSets: plan.sets.filter((s) => s.overlap).map((s) => s.name),
    passesInFlight: () => manager?.queue.passesInFlight() ?? [],
  });
  const revisionMonitor = startRevisionMonitor(cluster, SIM_NAMESPACE);
  const endings = startOperationEndings(cluster, SIM_NAMESPACE);
  const raiseCoverage = watchRaises(cluster, SIM_NAMESPACE);
  /** The overlapping sets with windows now, those that ever had them, and whether both had at once. */
  const overlapScheduled = new Set<string>();
  const overlapEver = new Set<string>();
  let overlapBoth = false;
  /** Whether the controller's clock was ever stepped. */
  let controllerStepped = false;
  const clockMonitor = startClockMonitor(cluster, {
    namespace: SIM_NAMESPACE,
    controllerClock: cluster.clocks.controller,
    createsPerMinute: CREATES_PER_MINUTE,
  });
  const violations: Violation[] = [];
  const faultHits: Record<string, number> = {};
  const countFault = (kind: string, n: number) => (faultHits[kind] = (faultHits[kind] ?? 0) + n);
  const traced: string[] = [];
  const timeline =
    options.traceFile !== undefined || options.traceFailuresDir !== undefined
      ? startTimeline(cluster, SIM_NAMESPACE, { write: (line) => traced.push(line) })
      : undefined;
  // Without a log destination, the controller's warnings are kept (the last few, on cluster time)
  // so a seed that does not converge says what the controller last complained of.
  const warnings = new RecentWarnings(cluster.clock);
  const logLevel =
    options.traceFile !== undefined
      ? 'debug'
      : timeline
        ? 'info'
        : (options.logLevel ?? (options.logDestination ? 'silent' : 'warn'));
  const logger = createLogger({
    level: logLevel,
    destination: timeline
      ? {
          write: (line: string) => {
            timeline.note(`log ${line.trimEnd()}`);
            warnings.write(line);
          },
        }
      : (options.logDestination ?? warnings),
  });
  let manager: Manager | undefined;
  let restarts = 0;
  let applied = 0;
  let refused = 0;
  const launch = async () => {
    const m = await startManager(
      {
        provisioner: qemuProvisioner,
        namespaces: [SIM_NAMESPACE],
        kubeconfig: undefined,
        leaderElect: false,
        metricsBindAddress: '0',
        healthProbeBindAddress: '0',
        maxBurst: 10,
        workers: 2,
        logLevel,
      },
      {
        kubeConfig: cluster.kubeConfigFor(CONTROLLER, SIM_NAMESPACE),
        clock: cluster.clocks.controller,
        logger,
        plannerOptions: { startupBackoffMaxMs: 60_000, startupTimeoutMs: 60_000 },
      },
    );
    void m.done.then((reason) => {
      if (manager === m && reason !== 'stopped') {
        violations.push({
          invariant: 'controller-crashed',
          at: cluster.clock.now(),
          message: `controller ended: ${reason}`,
        });
      }
    });
    manager = m;
  };
  /** Told once the controller has stopped (refusals.ts: what a stopped process met is not judged). */
  const stopListeners: (() => void)[] = [];
  const stopController = async () => {
    const m = manager;
    manager = undefined;
    await m?.stop();
    for (const listener of stopListeners) listener();
  };
  const setsRt = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const classesRt = cluster.registry.get(
    'virtualtarget.jumpstarter.dev',
    'v1alpha1',
    'virtualtargetclasses',
  )!;
  const podsRt = cluster.registry.get('', 'v1', 'pods')!;
  const operationsRt = cluster.registry.get(
    'virtualtarget.jumpstarter.dev',
    'v1alpha1',
    'exporteroperations',
  )!;
  const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  let operationsCreated = 0;
  /** Sets an ExporterOperation disabled instances of: the calm phase enables them again. */
  const disabledSets = new Set<string>();
  let jumpstarter: JumpstarterSimulator | undefined = cluster.jumpstarter;
  /** Jumpstarter's lease client; an operation on leases before the Lease CRD exists is refused. */
  const leasesOf = () => {
    if (!jumpstarter) throw new Error('the Lease CRD is not installed yet');
    return jumpstarter.leases;
  };
  const deletedSets = new Set<string>();
  /** Classes whose parameters are nested past the limit now. */
  const deepClasses = new Set<string>();
  const kubeletFaults: (() => void)[] = [];
  const active = (): Lease[] =>
    jumpstarter
      ? jumpstarter.leases.list(SIM_NAMESPACE).filter((l) => l.status?.ended !== true && !l.spec?.release)
      : [];

  /** Sets pinned to a name no revision has: unpinned for the calm phase (they touch no instance). */
  const unknownPins = new Set<string>();
  /** Sets pinned to one of their recorded revisions. */
  const recordedPins = new Set<string>();

  /**
   * §3.19: each set of a class left with deep parameters reports them (ParametersValid=False naming the
   * limit) within the convergence bound of cluster time once faults stop (a pass may first wait out its
   * key's retry backoff) — a pass that overflowed its stack never would.
   */
  const checkDeepInputReported = async () => {
    // A set pinned to a recorded revision builds from that revision's parameters, not its class's.
    const sets = plan.sets.filter(
      (s) => deepClasses.has(s.className) && !deletedSets.has(s.name) && !recordedPins.has(s.name),
    );
    const reported = (name: string) => {
      const set = cluster.store.get(setsRt, SIM_NAMESPACE, name) as { status?: { conditions?: Condition[] } };
      const condition = set.status?.conditions?.find((c) => c.type === 'ParametersValid');
      return condition?.status === 'False' && (condition.message ?? '').includes('is nested more than');
    };
    const until = cluster.clock.now() + (options.settleTimeoutMs ?? 240_000);
    while (!sets.every((s) => reported(s.name)) && cluster.clock.now() < until) await waitWall(20);
    const silent = sets.filter((s) => !reported(s.name)).map((s) => s.name);
    if (silent.length > 0) {
      violations.push({
        invariant: 'deep-input-reported',
        at: cluster.clock.now(),
        message: `sets whose class has parameters nested past the limit do not report it: ${silent.join(', ')}`,
      });
    }
  };

  const revisionsRt = cluster.registry.get('apps', 'v1', 'controllerrevisions')!;
  /** The value a pin operation writes: a recorded revision's name or hash, a name none has, or null. */
  const pinValue = (op: Extract<LabOperation, { kind: 'pin' }>): string | null | undefined => {
    if (op.target === 'none') return null;
    if (op.target === 'unknown') return `${op.set}-0000000000`;
    const recorded = (
      cluster.store.list(revisionsRt, SIM_NAMESPACE).items as {
        metadata: { name?: string; labels?: Record<string, string> };
      }[]
    ).filter((r) => r.metadata.labels?.[Labels.exporterSetName] === op.set);
    if (recorded.length === 0) return undefined;
    const chosen = recorded[Math.min(recorded.length - 1, Math.floor(op.pick * recorded.length))];
    // By name or by hash, both ways a pin may name a revision.
    return op.pick * recorded.length - Math.floor(op.pick * recorded.length) < 0.5
      ? chosen.metadata.name
      : chosen.metadata.labels?.[Labels.templateRevision];
  };

  /** The set's maxReplicas now; no ceiling (0) reads as unbounded. */
  const ceilingOf = (name: string): number => {
    const max = (cluster.store.get(setsRt, SIM_NAMESPACE, name).spec as { maxReplicas?: number }).maxReplicas;
    return max !== undefined && max > 0 ? max : Number.POSITIVE_INFINITY;
  };

  const apply = async (op: LabOperation): Promise<void> => {
    switch (op.kind) {
      case 'lease':
        leasesOf().create({
          namespace: SIM_NAMESPACE,
          selector: { matchLabels: { board: op.set } },
          duration: `${op.durationSeconds}s`,
        });
        return;
      case 'release': {
        const open = active();
        if (open.length > 0)
          leasesOf().release(SIM_NAMESPACE, open[Math.floor(op.pick * open.length)].metadata.name!);
        return;
      }
      case 'shared-lease':
        leasesOf().create({
          namespace: SIM_NAMESPACE,
          selector: { matchLabels: { ...SHARED_LABEL } },
          duration: `${op.durationSeconds}s`,
        });
        countFault('sharedLease', 1);
        return;
      case 'pause':
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', { spec: { paused: op.paused } });
        countFault(op.paused ? 'pause' : 'unpause', 1);
        return;
      case 'pool-ops': {
        const { change } = op;
        const value =
          change.field === 'recycleRequestedAt'
            ? new Date(cluster.clocks.apiServer.now() + change.aheadMs).toISOString()
            : change.field === 'scaleInStrategy' && change.value !== null
              ? {
                  basePolicy: change.value.basePolicy,
                  selectors: change.value.byRevision
                    ? [{ matchExpressions: [{ key: 'revision', operator: 'Exists' }] }]
                    : null,
                }
              : change.field === 'schedules' && change.value !== null
                ? [
                    {
                      name: 'sim',
                      cron: `*/${change.value.everyMinutes} * * * *`,
                      duration: `${change.value.durationSeconds}s`,
                      leadTime: '10s',
                      // At most the ceiling now, as admission wants.
                      minAvailableReplicas: Math.min(change.value.minAvailable, ceilingOf(op.set)),
                    },
                  ]
                : change.value;
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', { spec: { [change.field]: value } });
        countFault(`poolOps.${change.field}`, 1);
        if (change.field === 'schedules' && plan.sets.some((p) => p.name === op.set && p.overlap)) {
          if (change.value === null) overlapScheduled.delete(op.set);
          else overlapScheduled.add(op.set);
          overlapScheduled.forEach((name) => overlapEver.add(name));
          overlapBoth ||= overlapScheduled.size === 2;
        }
        return;
      }
      case 'pin': {
        if (deletedSets.has(op.set)) return;
        const pin = pinValue(op);
        if (pin === undefined) return;
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', { spec: { pinnedRevision: pin } });
        if (op.target === 'unknown') unknownPins.add(op.set);
        else unknownPins.delete(op.set);
        if (op.target === 'recorded') recordedPins.add(op.set);
        else recordedPins.delete(op.set);
        countFault(op.target === 'recorded' ? 'pin' : op.target === 'unknown' ? 'pinUnknown' : 'unpin', 1);
        return;
      }
      case 'lease-crd-appears': {
        cluster.installCrds(jumpstarterCrds.filter(isLeaseCrd));
        const started = startJumpstarterSimulator({ store: cluster.store, clock: cluster.clock });
        cluster.onStop(() => started.stop());
        jumpstarter = started;
        countFault('leaseCrdLate', 1);
        return;
      }
      case 'template':
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', {
          spec: {
            template: { metadata: { labels: { board: op.set, revision: String(op.revision) } } },
          },
        });
        return;
      case 'class-edit': {
        // Every other invalid edit nests the parameters as deep as an API server admits (§3.19).
        const deep = !op.valid && applied % 2 === 1;
        const memory = op.valid ? VALID_MEMORY[applied % 2] : deep ? VALID_MEMORY[0] : 'lots';
        cluster.store.patch(classesRt, SIM_NAMESPACE, op.className, 'merge', {
          spec: { parameters: { resources: { memory }, nested: deep ? deepParameters() : null } },
        });
        if (deep) {
          countFault('deepParameters', 1);
          deepClasses.add(op.className);
        } else deepClasses.delete(op.className);
        return;
      }
      case 'resize':
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', {
          spec: { minAvailableReplicas: op.minAvailableReplicas, maxReplicas: op.maxReplicas },
        });
        return;
      case 'delete-set':
        cluster.store.delete(setsRt, SIM_NAMESPACE, op.set);
        deletedSets.add(op.set);
        endings.setDeleted(op.set);
        return;
      case 'restart-controller': {
        // A crash: from now on the old process gets nowhere; what it had in flight is lost.
        const cut = op.abrupt
          ? cluster.faults.add({ kind: 'error', code: 503, identity: CONTROLLER })
          : undefined;
        await stopController();
        if (cut !== undefined) {
          countFault('crash', 1);
          cluster.faults.remove(cut);
        }
        restarts += 1;
        await launch();
        return;
      }
      case 'crash-pod': {
        const running = (cluster.store.list(podsRt, SIM_NAMESPACE).items as KubeObject[]).filter(
          (p) =>
            p.metadata.labels?.[Labels.exporterSetName] !== undefined &&
            (p.status as { phase?: string } | undefined)?.phase === 'Running',
        );
        if (running.length > 0) {
          cluster.kubelet!.crash(
            SIM_NAMESPACE,
            running[Math.floor(op.pick * running.length)].metadata.name ?? '',
          );
          countFault('podCrash', 1);
        }
        return;
      }
      case 'never-ready':
        kubeletFaults.push(
          cluster.kubelet!.injectFault(
            { namespace: SIM_NAMESPACE },
            { kind: 'never-ready' },
            { times: op.times },
          ),
        );
        countFault('neverReady', op.times);
        return;
      case 'clock-skew':
        if (op.machine === 'controller') {
          clockMonitor.skewing();
          controllerStepped = true;
        }
        cluster.clocks[op.machine].setOffsetMs(op.offsetMs);
        countFault(`clockSkew.${op.machine}`, 1);
        return;
      case 'exporter-operation': {
        const instances = (cluster.store.list(exportersRt, SIM_NAMESPACE).items as KubeObject[])
          .filter(
            (e) => e.metadata.labels?.[Labels.exporterSetName] === op.set && !e.metadata.deletionTimestamp,
          )
          .map((e) => e.metadata.name ?? '')
          .sort();
        if (!op.bySelector && instances.length === 0) return;
        operationsCreated += 1;
        const name = `op-${operationsCreated}-${op.operation.toLowerCase()}`;
        cluster.store.create(operationsRt, SIM_NAMESPACE, {
          apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
          kind: 'ExporterOperation',
          metadata: { name },
          spec: {
            operation: op.operation,
            ...(op.bySelector
              ? { exporterSetName: op.set }
              : { exporterName: instances[Math.floor(op.pick * instances.length)] }),
            ...(op.deadlineSeconds !== undefined ? { activeDeadlineSeconds: op.deadlineSeconds } : {}),
            ...(op.ttlSeconds !== undefined ? { ttlSecondsAfterFinished: op.ttlSeconds } : {}),
          },
        });
        endings.created(name, op.set);
        if (op.operation === 'Disable') disabledSets.add(op.set);
        countFault(`operation.${op.operation}`, 1);
        return;
      }
      case 'tamper-status': {
        const patch = tamperPatch(op.pick, cluster.clock.now());
        for (const value of Object.values(patch)) clockMonitor.tampered(String(value));
        countFault('tamperStatus', 1);
        cluster.store.patch(setsRt, SIM_NAMESPACE, op.set, 'merge', { status: patch }, 'status');
        countFault('tamperStatusAdmitted', 1);
        return;
      }
    }
  };

  /**
   * The operator undoes what Disable operations did: once every Disable has finished (each has a
   * deadline; at most a minute of cluster time is given), one Enable per set that had one, waited for
   * (another minute at most).
   */
  const enableDisabledSets = async () => {
    const disablesFinished = () =>
      (cluster.store.list(operationsRt, SIM_NAMESPACE).items as KubeObject[]).every((o) => {
        const state = (o.status as { state?: string } | undefined)?.state;
        return (
          (o.spec as { operation?: string }).operation !== 'Disable' ||
          state === 'Complete' ||
          state === 'Failed'
        );
      });
    const until = cluster.clock.now() + 60_000;
    while (!disablesFinished() && cluster.clock.now() < until) await waitWall(20);
    const enables = [...disabledSets]
      .filter((name) => !deletedSets.has(name))
      .map((set) => `calm-enable-${set}`);
    for (const name of enables) {
      cluster.store.create(operationsRt, SIM_NAMESPACE, {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterOperation',
        metadata: { name },
        spec: { operation: 'Enable', exporterSetName: name.slice('calm-enable-'.length) },
      });
    }
    // The Enables finish before the probes come: a probe finding only disabled Exporters ends at once.
    const finished = (name: string) => {
      try {
        const status = cluster.store.get(operationsRt, SIM_NAMESPACE, name).status as
          { state?: string } | undefined;
        return status?.state === 'Complete' || status?.state === 'Failed';
      } catch {
        return true; // gone
      }
    };
    const enabledBy = cluster.clock.now() + 60_000;
    while (!enables.every(finished) && cluster.clock.now() < enabledBy) await waitWall(20);
  };

  let convergedAfterMs: number | undefined;
  let coverage: Record<string, number> | undefined;
  try {
    seedObjects(cluster, plan);
    addFaults(cluster, plan);
    await launch();
    const t0 = cluster.clock.now();
    const steps = [
      ...plan.operations.map(({ atMs, operation }) => ({
        atMs,
        run: async () => {
          timeline?.note(`operation ${JSON.stringify(operation)}`);
          try {
            await apply(operation);
            applied += 1;
          } catch {
            refused += 1; // e.g. a resize of a deleted set: the API said no, as it would to a person
          }
        },
      })),
      ...refusalSteps(
        cluster,
        plan.faults.refusals,
        () => t0,
        monitor,
        { violate: (violation) => violations.push(violation), count: countFault },
        () => manager?.queue.passesInFlight() ?? [],
        (listener) => stopListeners.push(listener),
      ),
    ].sort((a, b) => a.atMs - b.atMs);
    for (const step of steps) {
      await untilClock(cluster, t0 + step.atMs);
      await step.run();
    }
    await untilClock(cluster, t0 + plan.chaosMs);

    // Calm: faults stop, classes are valid, no set is paused and every one replaces outdated instances
    // (Proactive), the controller runs, leases end, probes arrive. Windows and forecasts keep raising.
    collectFaultHits(cluster, countFault);
    cluster.faults.clear();
    kubeletFaults.forEach((remove) => remove());
    if (!manager) await launch();
    await checkDeepInputReported();
    for (const c of plan.classes) {
      cluster.store.patch(classesRt, SIM_NAMESPACE, c.name, 'merge', {
        spec: { parameters: { resources: { memory: VALID_MEMORY[0] }, nested: null } },
      });
    }
    for (const s of plan.sets.filter((s) => !deletedSets.has(s.name))) {
      // Back to Proactive: the convergence check wants no outdated idle instance left.
      cluster.store.patch(setsRt, SIM_NAMESPACE, s.name, 'merge', {
        // A pin to a recorded revision stays: the pool must converge on it as on a template.
        spec: {
          paused: false,
          updateStrategy: null,
          ...calmWindows(cluster.store.get(setsRt, SIM_NAMESPACE, s.name)),
          ...(unknownPins.has(s.name) ? { pinnedRevision: null } : {}),
        },
      });
    }
    for (const l of active()) leasesOf().release(SIM_NAMESPACE, l.metadata.name!);
    await enableDisabledSets();
    const calmAt = cluster.clock.now();
    const deadline = calmAt + (options.settleTimeoutMs ?? 240_000);
    // Probes arrive once every set has an enabled Exporter a lease can wait on (the standby of rule 6):
    // a lease that finds none ends at once (upstream Jumpstarter), which no controller can prevent
    // while a class was just fixed. A set that never gets one fails convergence below.
    const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const waitable = (set: string) =>
      (cluster.store.list(exportersRt, SIM_NAMESPACE).items as KubeObject[]).some(
        (e) =>
          e.metadata.labels?.[Labels.exporterSetName] === set &&
          (e.spec as { enabled?: boolean } | undefined)?.enabled !== false &&
          e.metadata.deletionTimestamp === undefined,
      );
    const live = plan.sets.filter((s) => !deletedSets.has(s.name)).map((s) => s.name);
    while (!live.every(waitable) && cluster.clock.now() < deadline) await waitWall(20);
    const probes = plan.sets
      .filter((s) => !deletedSets.has(s.name))
      .map(
        (s) =>
          leasesOf().create({
            namespace: SIM_NAMESPACE,
            name: `probe-${s.name}`,
            selector: { matchLabels: { board: s.name } },
            duration: '1h',
          }).metadata.name!,
      );
    let problems: string[] = [];
    let unended: string[] = [];
    /** Each live set's buffer in effect at the last check: the converged one, once converged. */
    const raisedAt = new Map<string, RaisedBuffer>();
    for (;;) {
      raisedAt.clear();
      problems = unmet(cluster, {
        namespace: SIM_NAMESPACE,
        deletedSets,
        probeLeases: probes,
        historyMayBeRefused: controllerStepped,
        onRaised: (set, raised) => raisedAt.set(set, raised),
      });
      unended = endings.unended();
      if (problems.length === 0 && unended.length === 0) {
        convergedAfterMs = cluster.clock.now() - calmAt;
        break;
      }
      if (cluster.clock.now() > deadline) break;
      await waitWall(20);
    }
    coverage = coverageOf(plan, raisedAt, endings.counts(), raiseCoverage, {
      scheduled: overlapEver.size,
      both: overlapBoth,
    });
    if (unended.length > 0) {
      violations.push({
        invariant: 'operation-ended',
        at: cluster.clock.now(),
        message: `operations on deleting sets had not ended ${options.settleTimeoutMs ?? 240_000} ms after the faults stopped: ${unended.join('; ')}`,
      });
    }
    // The cluster runs Strict field validation, and no fault answers 400: any 400 is a request the
    // controller should not have sent (an unknown or duplicate field, a malformed body).
    const badRequests = cluster.counters.totalWithCode(400, { identity: CONTROLLER });
    if (badRequests > 0) {
      violations.push({
        invariant: 'requests-accepted',
        at: cluster.clock.now(),
        message: `the API server answered ${badRequests} of the controller's requests with 400 (strict field validation)`,
      });
    }
    if (problems.length > 0) {
      violations.push({
        invariant: 'convergence',
        at: cluster.clock.now(),
        message: `not converged ${options.settleTimeoutMs ?? 240_000} ms after the faults stopped: ${problems.join('; ')}${longPasses(manager)}${warnings.since(calmAt)}`,
      });
    }
  } finally {
    await stopController();
    monitor.stop();
    endings.stop();
    raiseCoverage.stop();
    clockMonitor.stop();
    revisionMonitor.stop();
    if (timeline) {
      const all = [
        ...monitor.violations,
        ...clockMonitor.violations,
        ...revisionMonitor.violations,
        ...endings.violations,
        ...violations,
      ];
      for (const v of all) traced.push(`${timeline.stampOf(v.at)} VIOLATION [${v.invariant}] ${v.message}\n`);
      timeline.stop();
      const file =
        options.traceFile ??
        (all.length > 0 && options.traceFailuresDir !== undefined
          ? join(options.traceFailuresDir, `seed-${seed}.trace`)
          : undefined);
      if (file !== undefined) {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, traced.join(''));
      }
    }
    await cluster.stop();
  }
  return {
    seed,
    violations: [
      ...monitor.violations,
      ...clockMonitor.violations,
      ...revisionMonitor.violations,
      ...endings.violations,
      ...violations,
    ],
    operations: { applied, refused },
    faults: faultHits,
    restarts,
    loadPattern: plan.loadPattern,
    peakCreatesPerMinute: clockMonitor.peakCreatesPerMinute(),
    ...(coverage !== undefined ? { coverage } : {}),
    ...(convergedAfterMs !== undefined ? { convergedAfterMs } : {}),
    wallMs: Date.now() - started,
    heapUsedMb: Math.round(process.memoryUsage().heapUsed / 1e6),
  };
}

function collectFaultHits(cluster: TestCluster, count: (kind: string, n: number) => void): void {
  for (const rule of cluster.faults.rules())
    count(rule.kind === 'error' ? `error${rule.code}` : rule.kind, rule.hits);
}

/** Passes still running after this long (cluster time) are named in a convergence violation. */
const LONG_PASS_MS = 30_000;

/** The controller's passes in flight for longer than `LONG_PASS_MS`, as a sentence to append; '' if none. */
function longPasses(manager: Manager | undefined): string {
  const long = (manager?.queue.passesInFlight() ?? []).filter((p) => p.forMs > LONG_PASS_MS);
  if (long.length === 0) return '';
  const shown = long.map((p) => `${p.key} for ${(p.forMs / 1000).toFixed(0)} s`).join(', ');
  return `. Passes that never ended: ${shown}`;
}

/**
 * What the seed exercised (summary.ts reads the keys): forecasting sets in mode Apply, those whose
 * status showed the forecast applied, those whose converged buffer the oracle checked raised by it and
 * by a window; the overlapping sets given windows and those whose status showed a window raising; the
 * operations on deleting sets.
 */
function coverageOf(
  plan: LabPlan,
  converged: ReadonlyMap<string, RaisedBuffer>,
  operations: { readonly pendingAtDelete: number; readonly afterDelete: number },
  raises: { readonly forecastApplied: ReadonlySet<string>; readonly windowRaised: ReadonlySet<string> },
  overlapWindows: { readonly scheduled: number; readonly both: boolean },
): Record<string, number> {
  const overlap = plan.sets.filter((s) => s.overlap).map((s) => s.name);
  const checked = [...converged.values()];
  return {
    forecastApplySets: plan.sets.filter((s) => s.forecast?.mode === 'Apply').length,
    forecastAppliedSets: raises.forecastApplied.size,
    forecastCheckedSets: checked.filter((r) => r.byForecast).length,
    windowCheckedSets: checked.filter((r) => r.bySchedule).length,
    overlapScheduledSets: overlapWindows.scheduled,
    overlapBothScheduled: overlapWindows.both ? 1 : 0,
    overlapRaisedSets: overlap.filter((name) => raises.windowRaised.has(name)).length,
    opsPendingAtDelete: operations.pendingAtDelete,
    opsAfterDelete: operations.afterDelete,
  };
}

/**
 * The calm phase's windows: each of the set's stays, asking what it asked, but open from now on (a
 * window every minute, a minute long), so the convergence check judges the raised buffer of a steady
 * pool; windows that kept opening and closing would leave no moment at which every set settled.
 * What a closing window leaves (surplus after the cooldown) is judged where the chaos removed one.
 */
function calmWindows(set: KubeObject): { schedules?: unknown[] } {
  const schedules = (set.spec as { schedules?: unknown } | undefined)?.schedules;
  if (!Array.isArray(schedules) || schedules.length === 0) return {};
  return {
    schedules: schedules.map((entry) => ({
      ...(entry as Record<string, unknown>),
      cron: '* * * * *',
      duration: '60s',
    })),
  };
}
