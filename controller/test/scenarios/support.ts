/**
 * Scenario harness: a test cluster with the Jumpstarter and kubelet simulators on a sped-up clock,
 * the controller's manager running in-process as the identity `controller`, and helpers that read
 * through the store (no API requests of their own, so the counters hold the controller's alone).
 */
import { afterEach } from '@jest/globals';
import {
  API_VERSION,
  Labels,
  qemuProvisioner,
  type Exporter,
  type ExporterSet,
  type ExporterSetSpec,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { startManager, type Manager, type ManagerDeps } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import type { Options } from '../../src/process/options';
import { startTestCluster, type TestCluster, type TestClusterOptions } from 'virtual-exporters-test-cluster';

export const NS = 'lab';
export const TEMPLATE_LABELS = { board: 'qemu-x86' } as const;
export const CONTROLLER = 'controller';

export interface Scenario {
  readonly cluster: TestCluster;
  manager: Manager;
  /** Starts a fresh manager (after `manager.stop()`), as a restarted controller process. */
  restart(): Promise<Manager>;
  stop(): Promise<void>;
}

export const controllerOptions = (overrides: Partial<Options> = {}): Options => ({
  provisioner: qemuProvisioner,
  namespaces: [NS],
  kubeconfig: undefined,
  leaderElect: false,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  maxBurst: 50,
  workers: 2,
  logLevel: 'silent',
  ...overrides,
});

export async function startScenario(
  options: {
    speedUp?: number;
    /** How far the API server's, kubelet's and controller's clocks are off true time (ms). */
    clockOffsets?: TestClusterOptions['clockOffsets'];
    /** How long Jumpstarter takes to issue a new Exporter's credential (cluster ms). */
    credentialDelayMs?: number;
    controller?: Partial<Options>;
    crds?: TestClusterOptions['crds'];
    /** Field validation for requests that name none; `Strict` proves the controller sends no unknown field. */
    fieldValidation?: TestClusterOptions['fieldValidation'];
    /** Leader-election timings (cluster ms), e.g. wider ones where the test is not about failover. */
    leaderElection?: ManagerDeps['leaderElection'];
    /** Runs once the cluster serves, before the controller starts (objects a restarted controller finds). */
    beforeController?: (cluster: TestCluster) => void;
  } = {},
): Promise<Scenario> {
  const cluster = await startTestCluster({
    namespaces: [NS],
    speedUp: options.speedUp ?? 20,
    jumpstarter: options.credentialDelayMs ? { credentialDelayMs: options.credentialDelayMs } : true,
    kubelet: true,
    ...(options.crds ? { crds: options.crds } : {}),
    ...(options.fieldValidation ? { fieldValidation: options.fieldValidation } : {}),
    ...(options.clockOffsets ? { clockOffsets: options.clockOffsets } : {}),
  });
  const launch = () => launchController(cluster, CONTROLLER, options.controller, options.leaderElection);
  let manager: Manager;
  try {
    options.beforeController?.(cluster);
    manager = await launch();
  } catch (error) {
    await cluster.stop(); // no scenario to stop later: its server and simulators would outlive the test
    throw error;
  }
  const scenario: Scenario = {
    cluster,
    manager,
    async restart() {
      scenario.manager = await launch();
      return scenario.manager;
    },
    async stop() {
      await scenario.manager.stop();
      await cluster.stop();
    },
  };
  return scenario;
}

/**
 * The scenario starter of a test file: each scenario it starts is stopped (manager, then cluster)
 * after its test, whether the test passed or not.
 */
export function scenarioPerTest(): (options?: Parameters<typeof startScenario>[0]) => Promise<Scenario> {
  let current: Scenario | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  return async (options) => (current = await startScenario(options));
}

/**
 * A controller process in-process, as `identity` (its requests are counted under it); with
 * `leaderElect` it campaigns on the cluster's clock under the same name.
 */
export function launchController(
  cluster: TestCluster,
  identity: string,
  overrides: Partial<Options> = {},
  leaderElection: ManagerDeps['leaderElection'] = {},
): Promise<Manager> {
  return startManager(controllerOptions(overrides), {
    kubeConfig: cluster.kubeConfigFor(identity, NS),
    clock: cluster.clocks.controller,
    logger: createLogger({ level: (process.env.SCENARIO_LOG as never) ?? 'silent' }),
    leaderElection: { ...leaderElection, identity, namespace: NS },
  });
}

const resource = (cluster: TestCluster, group: string, plural: string) => {
  const rt = cluster.registry.get(group, 'v1alpha1', plural);
  if (!rt) throw new Error(`${plural} is not served`);
  return rt;
};

export function createClass(
  cluster: TestCluster,
  name = 'qemu',
  spec: Partial<VirtualTargetClass['spec']> = {},
): void {
  cluster.store.create(resource(cluster, 'virtualtarget.jumpstarter.dev', 'virtualtargetclasses'), NS, {
    apiVersion: API_VERSION,
    kind: 'VirtualTargetClass',
    metadata: { name },
    spec: { provisioner: 'qemu.jumpstarter.dev', parameters: { arch: 'x86_64' }, ...spec },
  });
}

export function createSet(cluster: TestCluster, name: string, spec: Partial<ExporterSetSpec>): void {
  cluster.store.create(resource(cluster, 'virtualtarget.jumpstarter.dev', 'exportersets'), NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      template: { metadata: { labels: { ...TEMPLATE_LABELS } }, spec: { drivers: [] } },
      ...spec,
    },
  });
}

/** Merge-patches the set's spec through the store (as an operator's kubectl would). */
export function patchSetSpec(cluster: TestCluster, name: string, spec: Partial<ExporterSetSpec>): void {
  const rt = resource(cluster, 'virtualtarget.jumpstarter.dev', 'exportersets');
  cluster.store.patch(rt, NS, name, 'merge', { spec });
}

export function getSet(cluster: TestCluster, name: string): ExporterSet | undefined {
  try {
    return cluster.store.get(
      resource(cluster, 'virtualtarget.jumpstarter.dev', 'exportersets'),
      NS,
      name,
    ) as unknown as ExporterSet;
  } catch {
    return undefined;
  }
}

/** The Exporters labelled with the set, not being deleted. */
export function instancesOf(cluster: TestCluster, set: string): Exporter[] {
  const rt = resource(cluster, 'jumpstarter.dev', 'exporters');
  return (cluster.store.list(rt, NS).items as unknown as Exporter[]).filter(
    (e) => e.metadata?.labels?.[Labels.exporterSetName] === set && !e.metadata?.deletionTimestamp,
  );
}

export function podNames(cluster: TestCluster): string[] {
  const rt = cluster.registry.get('', 'v1', 'pods')!;
  return (cluster.store.list(rt, NS).items as { metadata?: { name?: string } }[]).map(
    (p) => p.metadata?.name ?? '',
  );
}

/** A core Event as the scenarios read it. */
export interface EventView {
  readonly reason: string;
  readonly message: string;
  readonly type: string;
  readonly involvedObject: { kind?: string; name?: string; uid?: string };
  readonly source?: { component?: string };
}

/** The Events of the namespace, optionally only those on the ExporterSet `set`. */
export function eventsOf(cluster: TestCluster, set?: string): EventView[] {
  const items = cluster.store.list(cluster.registry.get('', 'v1', 'events')!, NS)
    .items as unknown as EventView[];
  return set === undefined
    ? items
    : items.filter((e) => e.involvedObject.kind === 'ExporterSet' && e.involvedObject.name === set);
}

export const condition = (set: ExporterSet | undefined, type: string) =>
  set?.status?.conditions?.find((c) => c.type === type);

/** Polls `check` (wall clock) until it returns a value other than undefined/false. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Waits until `check` returns a value other than undefined/false, checking it now and after writes to
 * the cluster's store (a watch on every resource, checks coalesced to one per event-loop turn), never
 * by sampling: the state is seen as soon as the behaviour writes it, and a loaded machine spends no
 * turns polling beside the controller. For conditions on the store only; `timeoutMs` is wall time.
 */
export function untilStored<T>(
  cluster: TestCluster,
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let queued = false;
    const watches: { stop(): void }[] = [];
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      for (const w of watches) w.stop();
    };
    const test = (): void => {
      queued = false;
      if (done) return;
      try {
        const value = check();
        if (value === undefined || value === false) return;
        finish();
        resolve(value);
      } catch (error) {
        finish();
        reject(error as Error);
      }
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    // Checked after the write's turn, not inside the store's write (the check reads the store).
    const onWrite = (): void => {
      if (queued || done) return;
      queued = true;
      setImmediate(test);
    };
    const from = { resourceVersion: cluster.store.resourceVersion() };
    for (const rt of cluster.registry.all()) watches.push(cluster.store.watch(rt, undefined, from, onWrite));
    test();
  });
}

/** Resolves once the cluster's clock reads `at` (a timer on that clock, not wall-time sampling). */
export function clusterTimeReaches(cluster: TestCluster, at: number): Promise<void> {
  return new Promise((resolve) => {
    const wait = (): void => {
      const left = at - cluster.clock.now();
      if (left <= 0) resolve();
      else cluster.clock.setTimeout(wait, left);
    };
    wait();
  });
}

/** As {@link until}, and a timeout's error also shows `state()`: what a rare failure needs to be understood. */
export async function untilExplained<T>(
  what: string,
  check: () => T | undefined | false,
  state: () => unknown,
  timeoutMs = 20_000,
): Promise<T> {
  try {
    return await until(what, check, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; state: ${JSON.stringify(state(), null, 1)}`);
  }
}

const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/**
 * Waits until the controller has stopped writing (no write for 200 ms of wall time), then returns how
 * many writes it makes over `clusterMs` of cluster time: the idle cost of a settled cluster (0 when all
 * is well).
 */
export async function writesWhenSettled(
  cluster: TestCluster,
  clusterMs: number,
  timeoutMs?: number,
): Promise<number> {
  const writes = () => cluster.counters.total({ identity: CONTROLLER, verb: WRITE_VERBS });
  let seen = writes();
  let since = Date.now();
  await until('no more writes', () => {
    if (writes() !== seen) [seen, since] = [writes(), Date.now()];
    return Date.now() - since >= 200;
  });
  await cluster.settle();
  const before = writes();
  const from = cluster.clock.now();
  await until(
    `${clusterMs / 1000} s of cluster time`,
    () => cluster.clock.now() - from >= clusterMs,
    timeoutMs,
  );
  return writes() - before;
}

/**
 * The Exporters a set controls (a controller ownerReference with its uid), whatever their labels, not
 * being deleted: a set's instances as SPEC §3.16 defines them.
 */
export function ownedInstancesOf(cluster: TestCluster, set: string): Exporter[] {
  const uid = getSet(cluster, set)?.metadata?.uid;
  const rt = resource(cluster, 'jumpstarter.dev', 'exporters');
  return (cluster.store.list(rt, NS).items as unknown as Exporter[]).filter(
    (e) =>
      !e.metadata?.deletionTimestamp &&
      (e.metadata?.ownerReferences ?? []).some(
        (ref) => ref.controller === true && ref.kind === 'ExporterSet' && ref.name === set && ref.uid === uid,
      ),
  );
}
