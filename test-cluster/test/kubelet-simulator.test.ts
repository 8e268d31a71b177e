/**
 * The kubelet simulator on a real store, alone (its exporter processes observed through the shared
 * `ExporterProcesses`, no Jumpstarter simulator): Pod phases and status shapes, boot delays, waiting
 * for Secrets, exit on lease end, and crash and never-ready injection — what the controller reads
 * to tell starting, ready, failed and finished instances apart.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { manualClock } from '../src/clock';
import { exporterProcessesOf } from '../src/jumpstarter/exporter-processes';
import { settle } from '../src/jumpstarter/work-queue';
import { startKubeletSimulator, type KubeletSimulatorOptions } from '../src/kubelet/simulator';
import { createRegistry } from '../src/registry';
import { createStore } from '../src/store';
import type { KubeObject, ResourceType } from '../src/types';

const NS = 'lab';
const EXPORTER_IMAGE = 'quay.io/jumpstarter-dev/jumpstarter:latest';
const RUNTIME_IMAGE = 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest';
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

interface PodStatus {
  phase: string;
  conditions: { type: string; status: string; reason?: string }[];
  containerStatuses: { name: string; ready: boolean; started: boolean; state: Record<string, any> }[];
  initContainerStatuses?: { name: string; ready: boolean; state: Record<string, any> }[];
  podIP?: string;
}

function world(options: Partial<KubeletSimulatorOptions> = {}) {
  const clock = manualClock();
  const store = createStore({ registry: createRegistry([]), clock, namespaces: [NS] });
  const kubelet = startKubeletSimulator({ store, ...options });
  stops.push(() => {
    kubelet.stop();
    store.close();
  });
  const rt = (kind: string): ResourceType => {
    const found = store.registry.byKind('v1', kind);
    if (!found) throw new Error(`no ${kind}`);
    return found;
  };
  const podRt = rt('Pod');
  const secretRt = rt('Secret');

  async function run(ms = 0): Promise<void> {
    await settle([kubelet]);
    clock.advance(ms);
    await settle([kubelet]);
  }

  function createPod(
    name: string,
    extra: { exporter?: boolean; configSecret?: string; envFromSecret?: string; secretKey?: string[] } = {},
  ): KubeObject {
    return store.create(podRt, NS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        labels: extra.exporter === false ? {} : { 'exporterset.jumpstarter.dev/name': 'pool' },
      },
      spec: {
        restartPolicy: 'Never',
        initContainers: [
          { name: 'copy-jumpstarter-exec', image: EXPORTER_IMAGE },
          { name: 'target-runtime', image: RUNTIME_IMAGE, restartPolicy: 'Always' },
        ],
        containers: [
          {
            name: 'exporter',
            image: EXPORTER_IMAGE,
            ...(extra.envFromSecret ? { envFrom: [{ secretRef: { name: extra.envFromSecret } }] } : {}),
            ...(extra.secretKey
              ? {
                  env: [
                    {
                      name: 'API_TOKEN',
                      valueFrom: { secretKeyRef: { name: extra.secretKey[0], key: extra.secretKey[1] } },
                    },
                  ],
                }
              : {}),
          },
        ],
        volumes: extra.configSecret
          ? [{ name: 'exporter-config', secret: { secretName: extra.configSecret } }]
          : [],
      },
    });
  }

  function createSecret(name: string, data: Record<string, string>): KubeObject {
    const encoded = Object.fromEntries(
      Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
    );
    return store.create(secretRt, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      data: encoded,
    });
  }

  const config = (exitOnLeaseEnd: boolean) =>
    stringify({ apiVersion: 'jumpstarter.dev/v1alpha1', kind: 'ExporterConfig', exitOnLeaseEnd, export: {} });
  const status = (name: string) => store.get(podRt, NS, name).status as PodStatus;
  const condition = (name: string, type: string) => {
    const c = status(name).conditions.find((x) => x.type === type);
    return c ? `${c.status}${c.reason ? `/${c.reason}` : ''}` : 'absent';
  };
  const processes = exporterProcessesOf(store);
  return { clock, store, kubelet, processes, run, createPod, createSecret, config, status, condition, podRt };
}

describe('Pod lifecycle', () => {
  it('reports a new Pod Pending at once and Running and Ready after the boot delay, through /status', async () => {
    const w = world({ bootDelayMs: 100 });
    const created = w.createPod('p1');
    await w.run(99);

    expect(w.status('p1').phase).toBe('Pending');
    expect(w.condition('p1', 'PodScheduled')).toBe('True');
    expect(w.condition('p1', 'Ready')).toBe('False/ContainersNotReady');
    expect(w.status('p1').containerStatuses[0]).toMatchObject({
      name: 'exporter',
      ready: false,
      state: { waiting: {} },
    });

    await w.run(1);
    const status = w.status('p1');
    expect(status.phase).toBe('Running');
    for (const type of ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']) {
      expect(w.condition('p1', type)).toBe('True');
    }
    expect(status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(status.containerStatuses).toEqual([
      expect.objectContaining({
        name: 'exporter',
        image: EXPORTER_IMAGE,
        ready: true,
        started: true,
        state: { running: expect.any(Object) },
      }),
    ]);
    expect(status.initContainerStatuses).toEqual([
      expect.objectContaining({
        name: 'copy-jumpstarter-exec',
        state: { terminated: expect.objectContaining({ exitCode: 0, reason: 'Completed' }) },
      }),
      expect.objectContaining({
        name: 'target-runtime',
        ready: true,
        state: { running: expect.any(Object) },
      }),
    ]);
    const pod = w.store.get(w.podRt, NS, 'p1');
    expect(pod.metadata.generation).toBe(created.metadata.generation);
  });

  it('boots a Pod as slowly as its slowest image says', async () => {
    const w = world({ bootDelayMs: 10, imageBootDelayMs: { [RUNTIME_IMAGE]: 500 } });
    w.createPod('p1');
    await w.run(499);
    expect(w.status('p1').phase).toBe('Pending');
    await w.run(1);
    expect(w.status('p1').phase).toBe('Running');
  });

  it('applies a changed boot delay to Pods created afterwards', async () => {
    const w = world({ bootDelayMs: 10 });
    w.kubelet.setBootDelay(1000);
    w.createPod('p1');
    await w.run(999);
    expect(w.status('p1').phase).toBe('Pending');
    await w.run(1);
    expect(w.status('p1').phase).toBe('Running');
  });

  it('keeps a Pod whose config Secret is missing in ContainerCreating until the Secret appears', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('p1', { configSecret: 'exporter-config-p1' });
    await w.run(1000);
    expect(w.status('p1').phase).toBe('Pending');
    expect(w.status('p1').containerStatuses[0].state.waiting).toMatchObject({
      reason: 'ContainerCreating',
      message: expect.stringContaining('secret "exporter-config-p1" not found'),
    });

    w.createSecret('exporter-config-p1', { 'config.yaml': w.config(false) });
    await w.run();
    expect(w.status('p1').phase).toBe('Running');
  });

  it('keeps a Pod whose secretKeyRef Secret or key is missing in CreateContainerConfigError until both exist', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('p1', { configSecret: 'exporter-config-p1', secretKey: ['class-credentials', 'token'] });
    w.createSecret('exporter-config-p1', { 'config.yaml': w.config(false) });
    await w.run(10);
    expect(w.status('p1').containerStatuses[0].state.waiting).toEqual({
      reason: 'CreateContainerConfigError',
      message: 'secret "class-credentials" not found',
    });

    w.createSecret('class-credentials', { other: 'x' });
    await w.run(10);
    expect(w.status('p1').containerStatuses[0].state.waiting).toEqual({
      reason: 'CreateContainerConfigError',
      message: "couldn't find key token in Secret lab/class-credentials",
    });

    const secretRt = w.store.registry.byKind('v1', 'Secret')!;
    w.store.patch(secretRt, NS, 'class-credentials', 'merge', {
      data: { token: Buffer.from('t').toString('base64') },
    });
    await w.run(10);
    expect(w.status('p1').phase).toBe('Running');
  });

  it('keeps a Pod whose envFrom Secret is missing in CreateContainerConfigError', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('p1', { envFromSecret: 'class-credentials' });
    await w.run(10);
    expect(w.status('p1').containerStatuses[0].state.waiting).toMatchObject({
      reason: 'CreateContainerConfigError',
    });
  });
});

describe('exporter processes', () => {
  it('starts an exporter process only in Pods labelled as exporter Pods', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('plain', { exporter: false });
    w.createPod('e1');
    await w.run(10);
    expect(w.processes.list().map((p) => `${p.exporter}:${p.phase}`)).toEqual(['e1:running']);
  });

  it('with exitOnLeaseEnd in the config, exits when told the lease ended and the Pod Succeeds', async () => {
    const w = world({ bootDelayMs: 10, exitDelayMs: 200 });
    w.createSecret('exporter-config-e1', { 'config.yaml': w.config(true) });
    w.createPod('e1', { configSecret: 'exporter-config-e1' });
    await w.run(10);

    expect(w.processes.leaseEnded(NS, 'e1', 'l1')).toBe(true);
    await w.run(199);
    expect(w.status('e1').phase).toBe('Running');
    await w.run(1);
    expect(w.status('e1').phase).toBe('Succeeded');
    expect(w.condition('e1', 'Ready')).toBe('False/PodCompleted');
    expect(w.status('e1').containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(w.processes.get(NS, 'e1')?.phase).toBe('exited');
  });

  it('without exitOnLeaseEnd, keeps running after its lease ended', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createSecret('exporter-config-e1', { 'config.yaml': w.config(false) });
    w.createPod('e1', { configSecret: 'exporter-config-e1' });
    await w.run(10);

    expect(w.processes.leaseEnded(NS, 'e1', 'l1')).toBe(false);
    await w.run(60_000);
    expect(w.status('e1').phase).toBe('Running');
    expect(w.processes.get(NS, 'e1')?.phase).toBe('running');
  });

  it('uses defaultExitOnLeaseEnd for exporter Pods without a config', async () => {
    const w = world({ bootDelayMs: 10, defaultExitOnLeaseEnd: true });
    w.createPod('e1');
    await w.run(10);
    w.processes.leaseEnded(NS, 'e1', 'l1');
    await w.run();
    expect(w.status('e1').phase).toBe('Succeeded');
  });

  it('fails a Pod whose exporter config is not YAML, before it is ready', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createSecret('exporter-config-e1', { 'config.yaml': 'export: [unclosed' });
    w.createPod('e1', { configSecret: 'exporter-config-e1' });
    await w.run(10);
    expect(w.status('e1').phase).toBe('Failed');
    expect(w.status('e1').containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
      message: expect.stringContaining('invalid YAML'),
    });
  });

  it('stops the process gracefully when its Pod is deleted', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('e1');
    await w.run(10);
    w.store.delete(w.podRt, NS, 'e1');
    await w.run();
    expect(w.processes.get(NS, 'e1')?.phase).toBe('exited');
  });
});

describe('fault injection', () => {
  it('crashes a Pod by name after it was ready: Failed with exit code 1, process lost', async () => {
    const w = world({ bootDelayMs: 10 });
    w.kubelet.injectFault({ name: 'e1' }, { kind: 'crash', afterReadyMs: 300, message: 'qemu died' });
    w.createPod('e1');
    w.createPod('e2');
    await w.run(10);
    expect(w.condition('e1', 'Ready')).toBe('True');

    await w.run(300);
    expect(w.status('e1').phase).toBe('Failed');
    expect(w.condition('e1', 'Ready')).toBe('False/PodFailed');
    expect(w.status('e1').containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 1,
      message: 'qemu died',
    });
    expect(w.processes.get(NS, 'e1')?.phase).toBe('lost');
    expect(w.status('e2').phase).toBe('Running');
  });

  it('crashes Pods of an image at boot, as many times as asked, never ready', async () => {
    const w = world({ bootDelayMs: 10 });
    w.kubelet.injectFault({ image: RUNTIME_IMAGE }, { kind: 'crash' }, { times: 2 });
    for (const name of ['a', 'b', 'c']) w.createPod(name);
    await w.run(10);

    expect(['a', 'b', 'c'].map((n) => w.status(n).phase)).toEqual(['Failed', 'Failed', 'Running']);
    expect(w.processes.get(NS, 'a')).toBeUndefined();
  });

  it('stops injecting once the rule is removed', async () => {
    const w = world({ bootDelayMs: 10 });
    const remove = w.kubelet.injectFault({}, { kind: 'crash' });
    remove();
    w.createPod('p1');
    await w.run(10);
    expect(w.status('p1').phase).toBe('Running');
  });

  it('keeps a never-ready Pod Running but not Ready, with no exporter process', async () => {
    const w = world({ bootDelayMs: 10 });
    w.kubelet.injectFault({ name: 'e1' }, { kind: 'never-ready' });
    w.createPod('e1');
    await w.run(60_000);

    expect(w.status('e1').phase).toBe('Running');
    expect(w.condition('e1', 'Ready')).toBe('False/ContainersNotReady');
    expect(w.status('e1').containerStatuses[0]).toMatchObject({ ready: false, started: true });
    expect(w.processes.get(NS, 'e1')).toBeUndefined();
  });

  it('crashes a running Pod on request', async () => {
    const w = world({ bootDelayMs: 10 });
    w.createPod('e1');
    await w.run(10);
    w.kubelet.crash(NS, 'e1');
    await w.run();
    expect(w.status('e1').phase).toBe('Failed');
    expect(w.kubelet.errors).toEqual([]);
  });
});
