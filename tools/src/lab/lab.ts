/**
 * The local lab (`npm run lab`): a test cluster with the Jumpstarter and kubelet simulators, the
 * pools of a GitOps app applied through its API, the real controller reconciling them, and a lease
 * load played against them — sampled into a live table, a summary and a chart.
 *
 * Time: every clock is the real one. The controller in a child process can only use the real clock,
 * and a sped-up cluster clock would stamp objects (Lease times, conditions) ahead of the controller's
 * `now`, breaking its cooldowns, startup timeouts and backoffs. So `speedUp` divides the durations of
 * the simulated world instead: Pod boot delay, lease arrivals, hold times and durations, the sets'
 * scaleDownCooldown, Jumpstarter's Pending backoff and exporter-seen timeout. What stays real-time is
 * the controller's own fixed timing (a 10 s first startup backoff, the 10 min startup timeout) and
 * the API round trips — which is what the lab measures. Lease waits are wall time.
 *
 * The load starts once every pool served by the controller has its warm buffer
 * (`availableReplicas ≥ minAvailableReplicas`); `durationMs` is the length of the load phase.
 */
import { jumpstarterCrds, qemuProvisioner, type CustomResourceDefinition } from 'virtual-exporters/internal';
import { createLogger, startManager } from 'virtual-exporters-controller/internal';
import {
  type Clock,
  type KubeObject,
  startTestCluster,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import { applyManifests } from './apply';
import { startControllerProcess } from './controller-process';
import { InstanceCounter } from './instance-tally';
import { startLoad, type LoadTarget } from './load-driver';
import { planLoad, type LeaseArrival, type LoadProfile } from './load-profile';
import { labManifests, type LabPool } from './manifests';
import { readPoolRows } from './pool-status';
import { unservedPoolLine } from './report';
import { distribution, summarize, type Distribution, type LabSummary, type LeaseRecord } from './summary';
import type { PoolRow } from './table';

/** The identity the controller's requests are counted under. */
export const CONTROLLER_IDENTITY = 'controller';

export type ControllerLaunch =
  /** `node <mainJs>`: the built controller, as deployed. */
  | { readonly kind: 'process'; readonly mainJs: string; readonly logFile: string }
  /** `startManager` in this process (tests: no build needed). */
  | { readonly kind: 'in-process' };

export interface LabOptions {
  /** The app's manifests (CRDs, installer, classes, sets), e.g. every chart's `toJson()`. */
  readonly objects: readonly KubeObject[];
  readonly profile: LoadProfile;
  /** Wall ms of the load phase. */
  readonly durationMs: number;
  /** How much shorter the simulated world's durations are than a real lab's (see above). */
  readonly speedUp: number;
  readonly seed: number;
  readonly controller: ControllerLaunch;
  /** Pod boot time of a real lab (QEMU boot and exporter registration), lab ms. @default 20000 */
  readonly bootDelayMs?: number;
  /** Wall ms between samples of the pools. @default 500 */
  readonly sampleIntervalMs?: number;
  /** Wall ms the pools may take to fill their warm buffers before the load. @default 60000 */
  readonly warmupTimeoutMs?: number;
  /** Called with every sample, for a live view. */
  readonly onSample?: (sample: LabSample) => void;
  /** Progress messages (cluster up, objects applied, ...). */
  readonly log?: (message: string) => void;
  /** Ends the run early (Ctrl-C): the controller and the cluster are still stopped. */
  readonly signal?: AbortSignal;
}

export interface LabSample {
  /** Wall ms since the controller started. */
  readonly elapsedMs: number;
  readonly phase: 'warm-up' | 'load';
  /** The sets' status. */
  readonly rows: readonly PoolRow[];
  /** Leases of each pool created and neither assigned nor ended: the demand as clients see it. */
  readonly waiting: Readonly<Record<string, number>>;
}

export interface PoolReport {
  readonly pool: string;
  readonly leases: number;
  readonly served: number;
  readonly waitMs?: Distribution;
}

export interface LabReport {
  /** The pools the controller serves (the load's targets). */
  readonly pools: readonly LabPool[];
  /** Sets of other provisioners: applied, left alone by this controller. */
  readonly ignoredPools: readonly LabPool[];
  /** Installer objects not applied (the controller runs as a process here). */
  readonly skipped: readonly string[];
  readonly crds: readonly string[];
  readonly plannedLeases: number;
  readonly samples: readonly LabSample[];
  /** Wall ms from the controller's start to the warm buffers being full (the load's start). */
  readonly warmupMs: number;
  /** Wall ms the load phase lasted. */
  readonly loadMs: number;
  readonly leases: readonly LeaseRecord[];
  readonly summary: LabSummary;
  readonly perPool: readonly PoolReport[];
  /** The controller's write requests from the load's start on (0 for a settled, idle lab). */
  readonly writesDuringLoad: number;
  /** 0 after a graceful stop. */
  readonly controllerExitCode: number | null;
  /** Failures of the simulators or the load (an empty list in a healthy run). */
  readonly errors: readonly string[];
}

interface RunningController {
  readonly exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function runLab(options: LabOptions): Promise<LabReport> {
  const { speedUp } = options;
  if (!(speedUp > 0) || !Number.isFinite(speedUp))
    throw new RangeError(`speedUp must be > 0 (got ${speedUp})`);
  const log = options.log ?? (() => undefined);
  const sampleIntervalMs = options.sampleIntervalMs ?? 500;
  const scaled = (labMs: number) => labMs / speedUp;
  const manifests = labManifests(options.objects, { speedUp });
  if (manifests.crds.length === 0) throw new Error('the app installs no CustomResourceDefinitions');
  const provisioner = qemuProvisioner.name;
  const pools = manifests.pools.filter((p) => p.provisioner === provisioner);
  const ignoredPools = manifests.pools.filter((p) => p.provisioner !== provisioner);
  if (pools.length === 0) throw new Error(`the app has no ExporterSet of a ${provisioner} class`);
  const duplicate = pools.find((p, i) => pools.findIndex((q) => q.name === p.name) !== i);
  if (duplicate) throw new Error(`two pools are named ${duplicate.name}; the lab needs distinct names`);

  const cluster = await startTestCluster({
    // Ours as the installer ships them (the app's CRDs), Jumpstarter's as its install does.
    crds: [...(manifests.crds as unknown as CustomResourceDefinition[]), ...jumpstarterCrds],
    namespaces: ['default'],
    seed: options.seed,
    jumpstarter: {
      pendingBackoff: { initialMs: scaled(1000), maxMs: scaled(30_000) },
      seenTimeoutMs: scaled(60_000),
    },
    kubelet: { bootDelayMs: scaled(options.bootDelayMs ?? 20_000) },
  });
  const clock: Clock = cluster.clock;
  const errors: string[] = [];
  let controller: RunningController | undefined;
  let load: ReturnType<typeof startLoad> | undefined;
  let exporterWatch: { stop(): void } | undefined;
  try {
    log(`test cluster at ${cluster.url}`);
    await applyManifests(cluster.kubeConfig, manifests.namespaces, manifests.objects);
    log(
      `applied ${manifests.objects.length} objects (${manifests.namespaces.join(', ')}); ` +
        `skipped ${manifests.skipped.length} installer objects (the controller runs as a local process)`,
    );
    for (const pool of ignoredPools) log(unservedPoolLine(pool));

    const instances = new InstanceCounter();
    const exporterRt = cluster.registry.byKind('jumpstarter.dev/v1alpha1', 'Exporter');
    if (!exporterRt) throw new Error('the test cluster does not serve Exporters');
    exporterWatch = cluster.store.watch(exporterRt, undefined, {}, (event) => instances.observe(event));

    const namespaces = [...new Set(pools.map((p) => p.namespace))];
    const started = clock.now();
    controller = await launch(options.controller, cluster, provisioner, namespaces);
    log(
      options.controller.kind === 'process'
        ? `controller running (log: ${options.controller.logFile})`
        : 'controller running in-process',
    );
    let controllerExit: number | null | undefined;
    void controller.exited.then(
      (code) => (controllerExit = code),
      (error: unknown) => {
        controllerExit = null;
        errors.push(`controller: ${String(error)}`);
      },
    );
    const ensureControllerRuns = () => {
      if (options.signal?.aborted) throw new Error('interrupted');
      if (controllerExit !== undefined) {
        throw new Error(`the controller exited early (code ${controllerExit}); see its log`);
      }
    };

    const samples: LabSample[] = [];
    const takeSample = (phase: LabSample['phase']): LabSample => {
      const sample: LabSample = {
        elapsedMs: clock.now() - started,
        phase,
        rows: readPoolRows(cluster.store, pools),
        waiting: Object.fromEntries(load?.waiting() ?? []),
      };
      samples.push(sample);
      options.onSample?.(sample);
      return sample;
    };

    // Warm-up: the load starts when every pool has its warm buffer.
    const warmupDeadline = clock.now() + (options.warmupTimeoutMs ?? 60_000);
    for (;;) {
      ensureControllerRuns();
      const sample = takeSample('warm-up');
      const cold = pools.filter((p, i) => sample.rows[i].available < p.minAvailableReplicas);
      if (cold.length === 0) break;
      if (clock.now() > warmupDeadline) {
        throw new Error(
          `the warm buffers did not fill within ${options.warmupTimeoutMs ?? 60_000} ms: ` +
            cold.map((p) => `${p.name} (minAvailableReplicas ${p.minAvailableReplicas})`).join(', '),
        );
      }
      await sleep(clock, sampleIntervalMs);
    }
    const loadStart = clock.now();
    const writesBeforeLoad = controllerWrites(cluster);
    const warmupMs = loadStart - started;
    log(`warm buffers full after ${(warmupMs / 1000).toFixed(1)} s; load '${options.profile}' starts`);

    const plan = planLoad({
      profile: options.profile,
      pools,
      durationMs: options.durationMs * speedUp,
      seed: options.seed,
    });
    const targets = new Map<string, LoadTarget>(
      pools.map((p) => [p.name, { namespace: p.namespace, labels: p.leaseLabels }]),
    );
    load = startLoad({
      store: cluster.store,
      leases: cluster.jumpstarter!.leases,
      clock,
      arrivals: plan.map((a) => toWall(a, speedUp)),
      targets,
      onAssigned: (namespace, exporter) => instances.leaseAssigned(namespace, exporter),
      onError: (error) => errors.push(`load: ${error.message}`),
    });
    while (clock.now() - loadStart < options.durationMs) {
      ensureControllerRuns();
      await sleep(clock, Math.min(sampleIntervalMs, options.durationMs - (clock.now() - loadStart)));
      takeSample('load');
    }
    const loadMs = clock.now() - loadStart;
    load.stop();
    ensureControllerRuns();

    const controllerExitCode = await controller.stop();
    controller = undefined;
    for (const e of [...(cluster.jumpstarter?.errors ?? []), ...(cluster.kubelet?.errors ?? [])]) {
      errors.push(`simulator: ${JSON.stringify(e)}`);
    }
    const leases = load.records();
    const summary = summarize({
      leases,
      instances: instances.tally(),
      requestsByVerb: cluster.counters.byVerb({ identity: CONTROLLER_IDENTITY }),
    });
    return {
      pools,
      ignoredPools,
      skipped: manifests.skipped,
      crds: manifests.crds.map((c) => c.metadata.name ?? ''),
      plannedLeases: plan.length,
      samples,
      warmupMs,
      loadMs,
      leases,
      summary,
      perPool: pools.map((p) => perPool(p.name, leases)),
      writesDuringLoad: controllerWrites(cluster) - writesBeforeLoad,
      controllerExitCode,
      errors,
    };
  } finally {
    load?.stop();
    exporterWatch?.stop();
    await controller?.stop();
    await cluster.stop();
  }
}

const controllerWrites = (cluster: TestCluster): number =>
  cluster.counters.total({
    identity: CONTROLLER_IDENTITY,
    verb: ['create', 'update', 'patch', 'delete', 'deletecollection'],
  });

function perPool(pool: string, leases: readonly LeaseRecord[]): PoolReport {
  const mine = leases.filter((l) => l.pool === pool);
  const waits = mine.flatMap((l) =>
    l.assignedAt === undefined ? [] : [Math.max(0, l.assignedAt - l.createdAt)],
  );
  const waitMs = distribution(waits);
  return { pool, leases: mine.length, served: waits.length, ...(waitMs ? { waitMs } : {}) };
}

function toWall(arrival: LeaseArrival, speedUp: number): LeaseArrival {
  return {
    atMs: arrival.atMs / speedUp,
    pool: arrival.pool,
    holdMs: arrival.holdMs === null ? null : arrival.holdMs / speedUp,
    durationMs: arrival.durationMs / speedUp,
  };
}

async function launch(
  how: ControllerLaunch,
  cluster: TestCluster,
  provisioner: string,
  namespaces: readonly string[],
): Promise<RunningController> {
  if (how.kind === 'process') {
    const child = startControllerProcess({
      mainJs: how.mainJs,
      kubeconfigYaml: cluster.kubeconfigYaml(CONTROLLER_IDENTITY),
      provisioner,
      namespaces,
      logFile: how.logFile,
    });
    return { exited: child.exited, stop: () => child.stop() };
  }
  const manager = await startManager(
    {
      provisioner: qemuProvisioner,
      namespaces,
      kubeconfig: undefined,
      leaderElect: false,
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      maxBurst: 50,
      workers: 4,
      logLevel: 'silent',
    },
    {
      kubeConfig: cluster.kubeConfigFor(CONTROLLER_IDENTITY),
      clock: cluster.clock,
      logger: createLogger({ level: 'silent' }),
    },
  );
  const exited = manager.done.then((reason) => (reason === 'stopped' ? 0 : 1));
  return {
    exited,
    async stop() {
      await manager.stop();
      return exited;
    },
  };
}

const sleep = (clock: Clock, ms: number) =>
  new Promise<void>((resolve) => clock.setTimeout(resolve, Math.max(0, ms)));
