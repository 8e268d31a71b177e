/**
 * P1 scale-up: one ExporterSet asks for 200 instances from zero (minAvailableReplicas = maxReplicas =
 * 200). Measured: from the set's creation to the 200th Pod existing (server-side commit times), with
 * the controller in its own process at its CLI defaults (`--workers 4 --max-burst 50`).
 *
 * Against what: a tight client-node loop in the bench process that creates the same 200 Exporters,
 * config Secrets and Pods with the same concurrency (50 in flight) against the same kind of server
 * (a fresh cluster child with the same simulators), through the controller's own clients (kept-alive
 * connections, controller/src/kube/keep-alive.ts): the API round-trip limit. Figure = controller
 * time / loop time; target ≤ 1.3.
 *
 * What the loop skips: the controller cannot render an instance (config Secret, Pod) before the
 * Jumpstarter simulator has issued the Exporter's credential (token, endpoint). The benchmark measures
 * that wait per instance and runs a second loop that waits for it too (through the same informers the
 * controller uses), which is the fair floor for any controller; both ratios are reported.
 */
import { KubeConfig } from '@kubernetes/client-node';
import {
  qemuProvisioner,
  mergeParameters,
  type Exporter,
  type ExporterSet,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { createClients, type KubeClients } from '../controller/src/kube/clients';
import { createInformers, type ControllerInformers } from '../controller/src/kube/informers';
import type { SecretObject } from '../controller/src/kube/wire';
import { currentRevision, desiredExporter } from '../controller/src/planner';
import { DEFAULT_ENDPOINT } from 'virtual-exporters-test-cluster';
import type { Backend, Benchmark, BenchContext } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild, type ClusterChild } from './support/cluster-child';
import type { EventRecord, RequestRecord } from './support/cluster-service';
import { epochNow, waitUntil } from './support/clock';
import { metricTotal, startControllerChild } from './support/controller-child';
import { inParallel, range } from './support/parallel';
import { CONTROLLER_IDENTITY, WRITE_VERBS } from './support/quiet';
import type { BenchResult } from './support/results';
import { classObject, setObject } from './support/seed';
import { median, summarize } from './support/stats';
import { firstTimes, gaps, nth } from './support/timeline';

const NAMESPACE = 'scale-up';
const SET = 'pool-0';
const INSTANCES = 200;
/** The CLI's `--max-burst` default: the loop keeps as many creates in flight. */
const CONCURRENCY = 50;
const LOOP_IDENTITY = 'bench';

interface RunTimes {
  /** Start to the 200th Pod (ms). */
  readonly podsMs: number;
  readonly exportersMs: number;
  readonly onlineMs?: number;
  readonly events: readonly EventRecord[];
  readonly start: number;
  /** CPU milliseconds spent from the start to the 200th Pod by the cluster process and by the client. */
  readonly cpuMs?: {
    readonly cluster: number;
    readonly client: number;
    /** The cluster's, by process (on the real server: the simulators, kube-apiserver, etcd, …). */
    readonly clusterByProcess: Readonly<Record<string, number>>;
  };
}

const cpuMs = (before: NodeJS.CpuUsage, after: NodeJS.CpuUsage) =>
  Math.round((after.user + after.system - before.user - before.system) / 1000);

const cpuMsByProcess = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after).map(([name, us]) => [name, Math.round((us - (before[name] ?? 0)) / 1000)]),
  );

async function withCluster<T>(
  backend: Backend,
  identity: string,
  work: (cluster: ClusterChild) => Promise<T>,
): Promise<T> {
  const cluster = await startClusterChild({ backend, namespaces: [NAMESPACE], identities: [identity] });
  try {
    await cluster.call('create', 'classes', NAMESPACE, classObject());
    return await work(cluster);
  } finally {
    await cluster.stop();
  }
}

const spec = { minAvailableReplicas: INSTANCES, maxReplicas: INSTANCES };

async function waitForPods(cluster: ClusterChild, online: boolean): Promise<void> {
  await waitUntil(
    `${INSTANCES} Pods${online ? ' and Online exporters' : ''}`,
    async () => {
      const counts = await cluster.call('counts', [NAMESPACE]);
      return counts.pods >= INSTANCES && (!online || counts.online >= INSTANCES);
    },
    { timeoutMs: 180_000, intervalMs: 10 },
  );
}

function timesFrom(events: readonly EventRecord[], start: number): RunTimes {
  const at = (resource: 'pods' | 'exporters', when?: (e: EventRecord) => boolean) =>
    nth(firstTimes(events, resource, when).values(), INSTANCES);
  const pods = at('pods');
  const exporters = at('exporters');
  const online = at('exporters', (e) => e.online === true);
  if (pods === undefined || exporters === undefined) throw new Error('the event log misses instances');
  return {
    podsMs: pods - start,
    exportersMs: exporters - start,
    ...(online !== undefined ? { onlineMs: online - start } : {}),
    events,
    start,
  };
}

/** The controller builds the pool. */
async function controllerRun(context: BenchContext) {
  return withCluster(context.settings.backend, CONTROLLER_IDENTITY, async (cluster) => {
    const controller = await startControllerChild({
      kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
      nodeFlags: profileFlags(context.settings, 'p1'),
    });
    try {
      await controller.ready();
      await cluster.call('record', ['sets', 'exporters', 'pods', 'secrets']);
      const requestsFrom = (await cluster.call('requests', 0)).next;
      const [cluster0, controller0] = [await cluster.call('cpuUsage'), (await controller.usage()).cpu];
      const byProcess0 = await cluster.call('cpuByProcess');
      await cluster.call('create', 'sets', NAMESPACE, setObject(SET, spec, false));
      await waitForPods(cluster, false);
      const [cluster1, controller1] = [await cluster.call('cpuUsage'), (await controller.usage()).cpu];
      const byProcess1 = await cluster.call('cpuByProcess');
      await waitForPods(cluster, true);
      const events = (await cluster.call('events', 0)).entries;
      const start = events.find((e) => e.resource === 'sets' && e.type === 'ADDED')?.at;
      if (start === undefined) throw new Error('the set was not recorded');
      const requests = (await cluster.call('requests', requestsFrom)).entries.filter(
        (r) => r.identity === CONTROLLER_IDENTITY,
      );
      const metrics = await controller.metrics();
      return {
        times: {
          ...timesFrom(events, start),
          cpuMs: {
            cluster: cpuMs(cluster0, cluster1),
            client: cpuMs(controller0, controller1),
            clusterByProcess: cpuMsByProcess(byProcess0, byProcess1),
          },
        },
        requests,
        passes: metricTotal(metrics, 'jumpstarter_exporterset_reconcile_duration_seconds_count'),
      };
    } finally {
      await controller.stop();
    }
  });
}

/** Waits for what the controller waits for before rendering: the credential Secret and the Exporter's endpoint. */
function credentialWaiter(informers: ControllerInformers) {
  const ready = (name: string): { exporter: Exporter; token: string } | undefined => {
    const exporter = informers.exporters.get(NAMESPACE, name);
    const secretName = exporter?.status?.credential?.name;
    const secret = secretName
      ? (informers.secrets.get(NAMESPACE, secretName) as SecretObject | undefined)
      : undefined;
    const token = secret?.data?.token;
    return exporter?.status?.endpoint && token
      ? { exporter, token: Buffer.from(token, 'base64').toString('utf8') }
      : undefined;
  };
  const waiting = new Map<string, (value: { exporter: Exporter; token: string }) => void>();
  const check = () => {
    for (const [name, resolve] of waiting) {
      const value = ready(name);
      if (value) {
        waiting.delete(name);
        resolve(value);
      }
    }
  };
  for (const event of ['add', 'update'] as const) {
    informers.exporters.on(event, check);
    informers.secrets.on(event, check);
  }
  return (name: string) =>
    new Promise<{ exporter: Exporter; token: string }>((resolve) => {
      const value = ready(name);
      if (value) resolve(value);
      else waiting.set(name, resolve);
    });
}

async function createRendered(clients: KubeClients, objects: readonly Record<string, unknown>[]) {
  for (const object of objects) {
    if (object.kind === 'Secret')
      await clients.core.createNamespacedSecret({ namespace: NAMESPACE, body: object });
    else await clients.core.createNamespacedPod({ namespace: NAMESPACE, body: object });
  }
}

/** The same objects from a tight loop; `waitForCredential` makes it wait as the controller must. */
async function loopRun(backend: Backend, waitForCredential: boolean) {
  return withCluster(backend, LOOP_IDENTITY, async (cluster) => {
    const set = cluster.call('create', 'sets', NAMESPACE, setObject(SET, spec, false));
    const cls = cluster.call('get', 'classes', NAMESPACE, 'qemu');
    const [exporterSet, virtualTargetClass] = (await Promise.all([set, cls])) as unknown as [
      ExporterSet,
      VirtualTargetClass,
    ];
    const revision = currentRevision(exporterSet, virtualTargetClass) ?? '';
    const parameters = mergeParameters(virtualTargetClass.spec?.parameters, exporterSet.spec?.parameters);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(cluster.kubeconfigs[LOOP_IDENTITY]);
    const clients = createClients(kubeConfig);
    let informers: ControllerInformers | undefined;
    let credential: ReturnType<typeof credentialWaiter> | undefined;
    if (waitForCredential) {
      informers = createInformers(clients, { namespaces: [NAMESPACE] });
      credential = credentialWaiter(informers);
      informers.start();
      await informers.synced;
    }
    try {
      await cluster.call('record', ['exporters', 'pods']);
      const cluster0 = await cluster.call('cpuUsage');
      const byProcess0 = await cluster.call('cpuByProcess');
      const client0 = process.cpuUsage();
      const startLocal = epochNow();
      await inParallel(range(INSTANCES), CONCURRENCY, async (ordinal) => {
        const name = `${SET}-${ordinal}`;
        const created = await clients.exporters.create(
          NAMESPACE,
          desiredExporter(exporterSet, name, ordinal, revision, false),
        );
        const { exporter, token } = credential
          ? await credential(name)
          : {
              exporter: {
                ...created,
                status: { credential: { name: `${name}-exporter` }, endpoint: DEFAULT_ENDPOINT },
              },
              token: 'not-waited-for',
            };
        const rendered = qemuProvisioner.render({
          exporterSet,
          virtualTargetClass,
          parameters,
          exporter,
          token,
        });
        await createRendered(clients, rendered.objects as Record<string, unknown>[]);
      });
      await waitForPods(cluster, false);
      const cpu = {
        cluster: cpuMs(cluster0, await cluster.call('cpuUsage')),
        client: cpuMs(client0, process.cpuUsage()),
        clusterByProcess: cpuMsByProcess(byProcess0, await cluster.call('cpuByProcess')),
      };
      const events = (await cluster.call('events', 0)).entries;
      return { ...timesFrom(events, startLocal + cluster.clockOffset.offsetMs), cpuMs: cpu };
    } finally {
      await informers?.stop();
      clients.close();
    }
  });
}

const round = (x: number) => Math.round(x * 10) / 10;

export const p1: Benchmark = {
  id: 'p1',
  name: 'p1-scale-up',
  title: 'scale-up: 200 instances from zero vs a tight client loop',
  async run(context): Promise<BenchResult> {
    const repetitions = context.settings.quick ? 1 : 3;
    const controllerRuns: Awaited<ReturnType<typeof controllerRun>>[] = [];
    const loops: RunTimes[] = [];
    const credentialLoops: RunTimes[] = [];
    for (let i = 0; i < repetitions; i++) {
      context.log(`p1: run ${i + 1}/${repetitions}: controller`);
      controllerRuns.push(await controllerRun(context));
      context.log(`p1: run ${i + 1}/${repetitions}: tight loop`);
      loops.push(await loopRun(context.settings.backend, false));
      context.log(`p1: run ${i + 1}/${repetitions}: tight loop waiting for credentials`);
      credentialLoops.push(await loopRun(context.settings.backend, true));
    }
    const controllerMs = median(controllerRuns.map((r) => r.times.podsMs));
    const loopMs = median(loops.map((r) => r.podsMs));
    const credentialLoopMs = median(credentialLoops.map((r) => r.podsMs));
    // Where the controller's time goes, from the median run.
    const run = controllerRuns.find((r) => r.times.podsMs === controllerMs) ?? controllerRuns[0];
    const exporters = firstTimes(run.times.events, 'exporters');
    const credentials = firstTimes(run.times.events, 'exporters', (e) => e.credential === true);
    const configSecrets = firstTimes(
      run.times.events,
      'secrets',
      (e) => e.type === 'ADDED' && e.set !== undefined,
    );
    const pods = firstTimes(run.times.events, 'pods');
    const byName = new Map(
      [...configSecrets].map(([name, at]) => [name.replace(/^exporter-config-/, ''), at]),
    );
    const verbs = (requests: readonly RequestRecord[]) => {
      const out: Record<string, number> = {};
      for (const r of requests) {
        if (!WRITE_VERBS.includes(r.verb as never)) continue;
        const key = `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
        out[key] = (out[key] ?? 0) + 1;
      }
      return out;
    };
    return {
      name: 'p1-scale-up',
      title: this.title,
      figures: [
        {
          label: 'controller / tight loop',
          value: round((controllerMs / loopMs) * 100) / 100,
          unit: 'x',
          target: { op: '<=', value: 1.3 },
        },
        {
          label: 'controller / loop that waits for credentials',
          value: round((controllerMs / credentialLoopMs) * 100) / 100,
          unit: 'x',
        },
        { label: 'controller: 200th Pod after', value: round(controllerMs), unit: 'ms' },
        { label: 'tight loop: 200th Pod after', value: round(loopMs), unit: 'ms' },
      ],
      details: {
        instances: INSTANCES,
        concurrency: CONCURRENCY,
        repetitions,
        controller: {
          podsMs: controllerRuns.map((r) => round(r.times.podsMs)),
          exportersMs: controllerRuns.map((r) => round(r.times.exportersMs)),
          onlineMs: controllerRuns.map((r) =>
            r.times.onlineMs === undefined ? null : round(r.times.onlineMs),
          ),
          cpuMs: controllerRuns.map((r) => r.times.cpuMs),
          reconcilePasses: controllerRuns.map((r) => r.passes),
          writes: verbs(run.requests),
          medianRun: {
            exporterCreateToCredentialMs: summarize(gaps(exporters, credentials)),
            credentialToConfigSecretMs: summarize(gaps(credentials, byName)),
            credentialToPodMs: summarize(gaps(credentials, pods)),
          },
        },
        tightLoop: {
          podsMs: loops.map((r) => round(r.podsMs)),
          exportersMs: loops.map((r) => round(r.exportersMs)),
          cpuMs: loops.map((r) => r.cpuMs),
        },
        credentialLoop: {
          podsMs: credentialLoops.map((r) => round(r.podsMs)),
          exportersMs: credentialLoops.map((r) => round(r.exportersMs)),
          cpuMs: credentialLoops.map((r) => r.cpuMs),
          exporterCreateToCredentialMs: summarize(
            gaps(
              firstTimes(credentialLoops[0].events, 'exporters'),
              firstTimes(credentialLoops[0].events, 'exporters', (e) => e.credential === true),
            ),
          ),
        },
      },
    };
  },
};
