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
 * Pools of `qemu.jumpstarter.dev` are served by the controller as deployed (a child process, or
 * in-process). Off-cluster pools (`qemu-ssh.jumpstarter.dev` / `qemu-baremetal.jumpstarter.dev`) are
 * served on sshd hosts the lab starts on loopback when sshd can run here (off-cluster.ts), by a
 * controller of that provisioner in the lab's process: the hosts' files live under a temporary folder
 * per host, which only the in-process lifecycle can be pointed at (`hostRoot`). Otherwise the lab says
 * why they are not served.
 *
 * The load starts once every served pool has its warm buffer
 * (`availableReplicas ≥ minAvailableReplicas`); `durationMs` is the length of the load phase. With the
 * `workday` profile the load phase is one simulated day: the pools get that day's schedules and a
 * forecast (workday.ts) applied before it, and the day starts on the next whole minute, which cron
 * can name.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import {
  getProvisioner,
  jumpstarterCrds,
  qemuProvisioner,
  QemuSshLifecycle,
  type CustomResourceDefinition,
  type Provisioner,
} from 'virtual-exporters/internal';
import { createLogger, startManager } from 'virtual-exporters-controller/internal';
import {
  type Clock,
  HostAgent,
  type KubeObject,
  type SshdLab,
  startTestCluster,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import { applyManifests } from './apply';
import { startControllerProcess } from './controller-process';
import { InstanceCounter } from './instance-tally';
import { startLoad, type LoadTarget } from './load-driver';
import { planLoad, type LeaseArrival, type LoadProfile } from './load-profile';
import { labManifests, withPlanning, type LabPool } from './manifests';
import {
  isOffCluster,
  labHostsOf,
  localiseOffCluster,
  planOffCluster,
  startOffClusterHosts,
  type LabHost,
} from './off-cluster';
import { readPoolRows } from './pool-status';
import { offClusterLine, unservedPoolLine } from './report';
import { distribution, summarize, type Distribution, type LabSummary, type LeaseRecord } from './summary';
import type { PoolRow } from './table';
import { MINUTE_MS, workdayPlanning, type PoolPlanning } from './workday';

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
  /**
   * Serve the off-cluster pools on sshd hosts on loopback when sshd can run here (else the report says
   * why not). @default true
   */
  readonly offCluster?: boolean;
  /** `workday`: the day starts on a multiple of this many wall ms (cron names whole minutes). @default 60000 */
  readonly dayAlignMs?: number;
}

/** What became of the app's off-cluster pools. */
export type OffClusterReport =
  /** Served on these hosts, each an sshd on loopback. */
  | { readonly hosts: readonly LabHost[] }
  /** Not served, and why. */
  | { readonly unavailable: string };

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
  /** The pools the controllers serve (the load's targets). */
  readonly pools: readonly LabPool[];
  /** Sets of other provisioners: applied, left alone by the lab's controllers. */
  readonly ignoredPools: readonly LabPool[];
  /** Set when the app has off-cluster pools. */
  readonly offCluster?: OffClusterReport;
  /** Installer objects not applied (the controller runs as a process here). */
  readonly skipped: readonly string[];
  readonly crds: readonly string[];
  readonly plannedLeases: number;
  readonly samples: readonly LabSample[];
  /** Wall ms from the controller's start to the warm buffers being full (the load's start). */
  readonly warmupMs: number;
  /** Wall ms the load phase lasted. */
  readonly loadMs: number;
  /** The simulated day of the `workday` profile, ms since the controller started (as `samples`). */
  readonly day?: { readonly startMs: number; readonly lengthMs: number };
  /** What the profile wrote into each pool's spec (schedules, forecast), by pool name. */
  readonly planning?: Readonly<Record<string, PoolPlanning>>;
  readonly leases: readonly LeaseRecord[];
  readonly summary: LabSummary;
  readonly perPool: readonly PoolReport[];
  /** The controller's write requests from the load's start on (0 for a settled, idle lab). */
  readonly writesDuringLoad: number;
  /** 0 after a graceful stop of every controller; else the first other exit code. */
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
  const inCluster = manifests.pools.filter((p) => p.provisioner === provisioner);
  const offClusterPools = manifests.pools.filter((p) => isOffCluster(p.provisioner));
  let objects = manifests.objects;
  let offCluster: OffClusterReport | undefined;
  let sshd: SshdLab | undefined;
  if (offClusterPools.length > 0) {
    if (options.offCluster === false)
      offCluster = { unavailable: 'the lab was told not to start sshd hosts' };
    else {
      const started = await startOffClusterHosts(planOffCluster(objects, offClusterPools).hostCount);
      if ('unavailable' in started) offCluster = started;
      else {
        sshd = started.lab;
        const hosts = labHostsOf(sshd);
        const localised = localiseOffCluster(
          objects,
          offClusterPools,
          hosts,
          sshd.hosts[0].user,
          sshd.clientKey.privateKey,
        );
        objects = [...localised.secrets, ...localised.objects];
        offCluster = { hosts };
      }
    }
  }
  const served = [...inCluster, ...(sshd ? offClusterPools : [])];
  const pools = manifests.pools.filter((p) => served.includes(p));
  const ignoredPools = manifests.pools.filter((p) => !served.includes(p));
  try {
    if (pools.length === 0) {
      throw new Error(
        `the app has no ExporterSet the lab can serve (a ${provisioner} class` +
          (offCluster && 'unavailable' in offCluster
            ? `; off-cluster pools: ${offCluster.unavailable})`
            : ')'),
      );
    }
    const duplicate = pools.find((p, i) => pools.findIndex((q) => q.name === p.name) !== i);
    if (duplicate) throw new Error(`two pools are named ${duplicate.name}; the lab needs distinct names`);
  } catch (error) {
    await sshd?.close();
    throw error;
  }

  let cluster: TestCluster;
  try {
    cluster = await startTestCluster({
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
  } catch (error) {
    await sshd?.close();
    throw error;
  }
  const clock: Clock = cluster.clock;
  const errors: string[] = [];
  const controllers: RunningController[] = [];
  let load: ReturnType<typeof startLoad> | undefined;
  let exporterWatch: { stop(): void } | undefined;
  let agent: HostAgent | undefined;
  try {
    log(`test cluster at ${cluster.url}`);
    await applyManifests(cluster.kubeConfig, manifests.namespaces, objects);
    log(
      `applied ${objects.length} objects (${manifests.namespaces.join(', ')}); ` +
        `skipped ${manifests.skipped.length} installer objects (the controllers run as local processes)`,
    );
    if (offCluster && 'hosts' in offCluster) log(offClusterLine(offCluster, offClusterPools));
    for (const pool of ignoredPools) log(unservedPoolLine(pool, offCluster));

    const instances = new InstanceCounter();
    const exporterRt = cluster.registry.byKind('jumpstarter.dev/v1alpha1', 'Exporter');
    if (!exporterRt) throw new Error('the test cluster does not serve Exporters');
    exporterWatch = cluster.store.watch(exporterRt, undefined, {}, (event) => instances.observe(event));

    const namespacesOf = (name: string) => [
      ...new Set(pools.filter((p) => p.provisioner === name).map((p) => p.namespace)),
    ];
    const started = clock.now();
    let controllerExit: { name: string; code: number | null } | undefined;
    const watchExit = (name: string, controller: RunningController) => {
      controllers.push(controller);
      void controller.exited.then(
        (code) => (controllerExit ??= { name, code }),
        (error: unknown) => {
          controllerExit ??= { name, code: null };
          errors.push(`controller ${name}: ${String(error)}`);
        },
      );
    };
    if (inCluster.length > 0) {
      watchExit(
        provisioner,
        await launch(options.controller, cluster, provisioner, namespacesOf(provisioner)),
      );
      log(
        options.controller.kind === 'process'
          ? `controller ${provisioner} running (log: ${options.controller.logFile})`
          : `controller ${provisioner} running in-process`,
      );
    }
    if (sshd) {
      const lab = sshd;
      for (const name of [...new Set(offClusterPools.map((p) => p.provisioner))]) {
        const lifecycle = new QemuSshLifecycle({
          hostRoot: (host) => lab.host(host.name).root,
          connectTimeoutMs: 5000,
        });
        const logFile =
          options.controller.kind === 'process'
            ? options.controller.logFile.replace(/(\.log)?$/, `-${name.split('.')[0]}.log`)
            : undefined;
        const provisionerOf: Provisioner = { ...getProvisioner(name)!, lifecycle };
        watchExit(name, await launchInProcess(cluster, provisionerOf, namespacesOf(name), logFile));
        log(`controller ${name} running in-process${logFile ? ` (log: ${logFile})` : ''}`);
      }
      agent = new HostAgent(lab.hosts, cluster.kubelet!.processes, {
        bootDelayMs: scaled(options.bootDelayMs ?? 20_000),
        onError: (message) => errors.push(`host agent: ${message}`),
      });
    }
    const ensureControllerRuns = () => {
      if (options.signal?.aborted) throw new Error('interrupted');
      if (controllerExit !== undefined) {
        throw new Error(
          `the controller ${controllerExit.name} exited early (code ${controllerExit.code}); see its log`,
        );
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
    let planning: Record<string, PoolPlanning> | undefined;
    if (options.profile === 'workday') {
      // Cron names whole minutes: the day starts on one (tests align on less).
      const align = options.dayAlignMs ?? MINUTE_MS;
      const dayStart = Math.ceil(clock.now() / align) * align;
      const day = { startMs: dayStart, lengthMs: options.durationMs };
      planning = Object.fromEntries(pools.map((p) => [p.name, workdayPlanning(p, day)]));
      const plannedSets = objects.flatMap((object) => {
        const pool = pools.find(
          (p) =>
            object.kind === 'ExporterSet' &&
            object.metadata.name === p.name &&
            (object.metadata.namespace ?? 'default') === p.namespace,
        );
        return pool ? [withPlanning(object, planning![pool.name])] : [];
      });
      await applyManifests(cluster.kubeConfig, [], plannedSets);
      log(
        `workday: the day starts at ${new Date(dayStart).toISOString()} and lasts ` +
          `${(options.durationMs / 1000).toFixed(0)} s; schedules and forecast applied to ${plannedSets.length} sets`,
      );
      while (clock.now() < dayStart) {
        ensureControllerRuns();
        takeSample('warm-up');
        await sleep(clock, Math.min(sampleIntervalMs, dayStart - clock.now()));
      }
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

    let controllerExitCode: number | null = 0;
    for (const controller of controllers.splice(0)) {
      const code = await controller.stop();
      if (controllerExitCode === 0) controllerExitCode = code;
    }
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
      ...(offCluster ? { offCluster } : {}),
      skipped: manifests.skipped,
      crds: manifests.crds.map((c) => c.metadata.name ?? ''),
      plannedLeases: plan.length,
      samples,
      warmupMs,
      loadMs,
      ...(planning ? { day: { startMs: warmupMs, lengthMs: options.durationMs }, planning } : {}),
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
    agent?.stop();
    for (const controller of controllers) await controller.stop();
    await cluster.stop();
    await sshd?.close();
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
  return launchInProcess(cluster, qemuProvisioner, namespaces);
}

/** The controller's manager in this process; its log goes to `logFile` (JSON lines), or nowhere. */
async function launchInProcess(
  cluster: TestCluster,
  provisioner: Provisioner,
  namespaces: readonly string[],
  logFile?: string,
): Promise<RunningController> {
  const stream: WriteStream | undefined = logFile ? createWriteStream(logFile) : undefined;
  const manager = await startManager(
    {
      provisioner,
      namespaces,
      kubeconfig: undefined,
      leaderElect: false,
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      maxBurst: 50,
      workers: 4,
      logLevel: stream ? 'info' : 'silent',
    },
    {
      kubeConfig: cluster.kubeConfigFor(CONTROLLER_IDENTITY),
      clock: cluster.clock,
      logger: stream
        ? createLogger({ level: 'info', destination: stream })
        : createLogger({ level: 'silent' }),
    },
  );
  const exited = manager.done.then((reason) => (reason === 'stopped' ? 0 : 1));
  return {
    exited,
    async stop() {
      await manager.stop();
      const code = await exited;
      if (stream) await new Promise<void>((resolve) => stream.end(resolve));
      return code;
    },
  };
}

const sleep = (clock: Clock, ms: number) =>
  new Promise<void>((resolve) => clock.setTimeout(resolve, Math.max(0, ms)));
