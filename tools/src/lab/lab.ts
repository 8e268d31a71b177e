/**
 * The local lab (`npm run lab`): a cluster with the Jumpstarter and kubelet simulators, the pools of a
 * GitOps app applied through its API, the real controller reconciling them, and a lease load played
 * against them — sampled into a live table, a summary and a chart. The cluster is the in-process test
 * cluster or the real Kubernetes (`backend`); the lab reaches either through one interface
 * (lab-cluster.ts), so a run reads the same on both.
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
 * controller of that provisioner in the lab's process (controller-launch.ts). Otherwise the lab says
 * why they are not served.
 *
 * The load starts once every served pool has its warm buffer
 * (`availableReplicas ≥ minAvailableReplicas`); `durationMs` is the length of the load phase. With the
 * `workday` profile the load phase is one simulated day: the pools get that day's schedules and a
 * forecast (workday.ts) applied before it, and the day starts on the next whole minute, which cron
 * can name.
 */
import { jumpstarterCrds, qemuProvisioner, type CustomResourceDefinition } from 'virtual-exporters/internal';
import type { Clock, HostAgent } from 'virtual-exporters-test-cluster';
import { applyManifests } from './apply';
import { startLabCluster } from './backends';
import { launchController, launchOffCluster, type RunningController } from './controller-launch';
import { InstanceCounter } from './instance-tally';
import type { LabCluster } from './lab-cluster';
import type { LabOptions, LabReport, LabSample } from './lab-types';
import { startLoad, type LoadTarget } from './load-driver';
import { atWallTime, planLoad } from './load-profile';
import { labManifests, plannedSets, type LabPool } from './manifests';
import { isOffCluster, prepareOffCluster, type OffClusterReport } from './off-cluster';
import { offClusterLine, unservedPoolLine } from './report';
import { poolReport, summarize, writesOf } from './summary';
import { MINUTE_MS, workdayPlanning, type PoolPlanning } from './workday';

export { CONTROLLER_IDENTITY } from './lab-cluster';
export type { ControllerLaunch } from './controller-launch';
export type { OffClusterReport } from './off-cluster';
export type { LabOptions, LabReport, LabSample } from './lab-types';
export type { PoolReport } from './summary';

export async function runLab(options: LabOptions): Promise<LabReport> {
  const { speedUp } = options;
  if (!(speedUp > 0) || !Number.isFinite(speedUp))
    throw new RangeError(`speedUp must be > 0 (got ${speedUp})`);
  const log = options.log ?? (() => undefined);
  const sampleIntervalMs = options.sampleIntervalMs ?? 500;
  const scaled = (labMs: number) => labMs / speedUp;
  const bootDelayMs = scaled(options.bootDelayMs ?? 20_000);
  const manifests = labManifests(options.objects, { speedUp });
  if (manifests.crds.length === 0) throw new Error('the app installs no CustomResourceDefinitions');
  const provisioner = qemuProvisioner.name;
  const inCluster = manifests.pools.filter((p) => p.provisioner === provisioner);
  const offClusterPools = manifests.pools.filter((p) => isOffCluster(p.provisioner));
  const setup = await prepareOffCluster(manifests.objects, offClusterPools, options.offCluster !== false);
  const { objects, sshd, report: offCluster } = setup;
  const served = [...inCluster, ...(sshd ? offClusterPools : [])];
  const pools = manifests.pools.filter((p) => served.includes(p));
  const ignoredPools = manifests.pools.filter((p) => !served.includes(p));

  let cluster: LabCluster;
  try {
    checkPools(pools, provisioner, offCluster);
    cluster = await startLabCluster(options.backend ?? 'test', {
      // Ours as the installer ships them (the app's CRDs), Jumpstarter's as its install does.
      crds: [...(manifests.crds as unknown as CustomResourceDefinition[]), ...jumpstarterCrds],
      namespaces: manifests.namespaces,
      seed: options.seed,
      jumpstarter: {
        pendingBackoff: { initialMs: scaled(1000), maxMs: scaled(30_000) },
        seenTimeoutMs: scaled(60_000),
      },
      kubelet: { bootDelayMs },
    });
  } catch (error) {
    await sshd?.close();
    throw error;
  }
  const clock: Clock = cluster.clock;
  const errors: string[] = [];
  const controllers: RunningController[] = [];
  let load: ReturnType<typeof startLoad> | undefined;
  let unwatchExporters: (() => void) | undefined;
  let agent: HostAgent | undefined;
  try {
    log(cluster.description);
    await applyManifests(cluster.kubeConfig, manifests.namespaces, objects);
    log(
      `applied ${objects.length} objects (${manifests.namespaces.join(', ')}); ` +
        `skipped ${manifests.skipped.length} installer objects (the controllers run as local processes)`,
    );
    if (offCluster && 'hosts' in offCluster) log(offClusterLine(offCluster, offClusterPools));
    for (const pool of ignoredPools) log(unservedPoolLine(pool, offCluster));

    const instances = new InstanceCounter();
    unwatchExporters = cluster.view.watch('Exporter', (event) => instances.observe(event));

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
      const how = options.controller;
      watchExit(
        provisioner,
        await launchController(how, cluster, qemuProvisioner, namespacesOf(provisioner)),
      );
      log(
        how.kind === 'process'
          ? `controller ${provisioner} running (log: ${how.logFile})`
          : `controller ${provisioner} running in-process`,
      );
    }
    if (sshd) {
      const names = [...new Set(offClusterPools.map((p) => p.provisioner))];
      agent = await launchOffCluster(
        options.controller,
        cluster,
        sshd,
        names.map((name) => ({ name, namespaces: namespacesOf(name) })),
        {
          bootDelayMs,
          onStarted: (name, controller, logFile) => {
            watchExit(name, controller);
            log(`controller ${name} running in-process${logFile ? ` (log: ${logFile})` : ''}`);
          },
          onError: (message) => errors.push(message),
        },
      );
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
        rows: cluster.poolRows(pools),
        waiting: Object.fromEntries(load?.waiting() ?? []),
      };
      samples.push(sample);
      options.onSample?.(sample);
      return sample;
    };

    // Warm-up: the load starts when every pool has its warm buffer.
    const warmupTimeoutMs = options.warmupTimeoutMs ?? 60_000;
    const warmupDeadline = clock.now() + warmupTimeoutMs;
    for (;;) {
      ensureControllerRuns();
      const sample = takeSample('warm-up');
      const cold = pools.filter((p, i) => sample.rows[i].available < p.minAvailableReplicas);
      if (cold.length === 0) break;
      if (clock.now() > warmupDeadline) {
        throw new Error(
          `the warm buffers did not fill within ${warmupTimeoutMs} ms: ` +
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
      const sets = plannedSets(objects, pools, planning);
      await applyManifests(cluster.kubeConfig, [], sets);
      log(
        `workday: the day starts at ${new Date(dayStart).toISOString()} and lasts ` +
          `${(options.durationMs / 1000).toFixed(0)} s; schedules and forecast applied to ${sets.length} sets`,
      );
      while (clock.now() < dayStart) {
        ensureControllerRuns();
        takeSample('warm-up');
        await sleep(clock, Math.min(sampleIntervalMs, dayStart - clock.now()));
      }
    }
    const loadStart = clock.now();
    const writesBeforeLoad = writesOf(cluster.controllerRequests());
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
      view: cluster.view,
      leases: cluster.leases,
      clock,
      arrivals: plan.map((a) => atWallTime(a, speedUp)),
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
    errors.push(...cluster.simulatorErrors());
    const leases = load.records();
    const requestsByVerb = cluster.controllerRequests();
    return {
      backend: cluster.backend,
      cluster: cluster.description,
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
      summary: summarize({ leases, instances: instances.tally(), requestsByVerb }),
      perPool: pools.map((p) => poolReport(p.name, leases)),
      writesDuringLoad: writesOf(requestsByVerb) - writesBeforeLoad,
      controllerExitCode,
      errors,
    };
  } finally {
    load?.stop();
    unwatchExporters?.();
    agent?.stop();
    for (const controller of controllers) await controller.stop();
    await cluster.stop();
    await sshd?.close();
  }
}

/** Throws when the lab has nothing to serve, or two pools share a name. */
function checkPools(pools: readonly LabPool[], provisioner: string, offCluster?: OffClusterReport): void {
  if (pools.length === 0) {
    throw new Error(
      `the app has no ExporterSet the lab can serve (a ${provisioner} class` +
        (offCluster && 'unavailable' in offCluster ? `; off-cluster pools: ${offCluster.unavailable})` : ')'),
    );
  }
  const duplicate = pools.find((p, i) => pools.findIndex((q) => q.name === p.name) !== i);
  if (duplicate) throw new Error(`two pools are named ${duplicate.name}; the lab needs distinct names`);
}

const sleep = (clock: Clock, ms: number) =>
  new Promise<void>((resolve) => clock.setTimeout(resolve, Math.max(0, ms)));
