/**
 * What the remote simulators' tests do through the API, as any client would: Exporters, a QEMU
 * instance rendered by the provisioner (as the controller creates it), polling reads.
 */
import { CoreV1Api, CustomObjectsApi, KubernetesObjectApi, type KubeConfig } from '@kubernetes/client-node';
import { qemuProvisioner, type Exporter, type Lease } from 'virtual-exporters/internal';
import { expect } from '@jest/globals';
import {
  LeaseState,
  startRemoteSimulators,
  startTestCluster,
  type AnyLeaseClient,
  type RemoteSimulators,
  type TestCluster,
} from '../src';

export const NS = 'lab';
const EXPORTERS = { group: 'jumpstarter.dev', version: 'v1alpha1', plural: 'exporters', namespace: NS };

/** Resolves with `read()`'s first defined value; rejects after `timeoutMs` of wall time. */
export async function until<T>(
  what: string,
  read: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `status/reason` of a condition, or 'absent'. */
export function cond(object: unknown, type: string): string {
  const conditions =
    (object as { status?: { conditions?: { type: string; status: string; reason?: string }[] } }).status
      ?.conditions ?? [];
  const found = conditions.find((c) => c.type === type);
  return found ? `${found.status}/${found.reason}` : 'absent';
}

/** A client of the cluster, as one identity. */
export function client(kubeConfig: KubeConfig) {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  const exporter = async (name: string) =>
    (await custom.getNamespacedCustomObject({ ...EXPORTERS, name })) as Exporter;
  const pod = (name: string) => core.readNamespacedPod({ namespace: NS, name });

  async function createExporter(name: string, labels: Record<string, string> = { board: 'rpi4' }) {
    const body = {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: { name, labels },
      spec: {},
    };
    return (await custom.createNamespacedCustomObject({ ...EXPORTERS, body })) as Exporter;
  }

  /** The token in the Exporter's credential Secret, once the Jumpstarter simulator issued it. */
  async function credential(name: string): Promise<{ exporter: Exporter; token: string }> {
    const issued = await until(`the credential of ${name}`, async () => {
      const e = await exporter(name);
      return e.status?.credential?.name && e.status.endpoint ? e : undefined;
    });
    const secret = await core.readNamespacedSecret({ namespace: NS, name: issued.status!.credential!.name });
    return { exporter: issued, token: Buffer.from(secret.data!.token, 'base64').toString('utf8') };
  }

  /** The QEMU instance's Pod and config Secret, as the provisioner renders them for `token`. */
  async function createInstance(created: Exporter, status: Exporter['status'], token: string) {
    const set = {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterSet',
      metadata: { name: 'pool', namespace: NS },
      spec: {
        virtualTargetClassName: 'qemu',
        recycleStrategy: 'ExitAndReplace',
        selector: { matchLabels: { board: 'rpi4' } },
        template: { metadata: { labels: { board: 'rpi4' } }, spec: { drivers: [] } },
      },
    };
    const cls = { metadata: { name: 'qemu', namespace: NS }, spec: { provisioner: 'qemu.jumpstarter.dev' } };
    const rendered = qemuProvisioner.render({
      exporterSet: set as never,
      virtualTargetClass: cls as never,
      parameters: { arch: 'x86_64' },
      exporter: { ...created, status },
      token,
    });
    for (const object of rendered.objects) await objects.create(object as never);
  }

  /** Exporter, credential, instance, and Online=True: one ready instance of a pool. */
  async function onlineInstance(name: string): Promise<Exporter> {
    const created = await createExporter(name);
    const { exporter: issued, token } = await credential(name);
    await createInstance(created, issued.status, token);
    return until(`${name} online`, async () => {
      const e = await exporter(name);
      return cond(e, 'Online') === 'True/Seen' ? e : undefined;
    });
  }

  return { custom, core, exporter, pod, createExporter, credential, createInstance, onlineInstance };
}

/** A Pod that runs no exporter. */
export const plainPod = (name: string) => ({
  metadata: { name },
  spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: 'registry.test/app:1' }] },
});

/** One lease's life, written once for both modes: every lease call is awaited. */
export async function serveOneLease(leases: AnyLeaseClient, api: ReturnType<typeof client>) {
  await api.onlineInstance('pool-0');
  const lease: Lease = await leases.create({
    namespace: NS,
    name: 'ci-1',
    selector: { matchLabels: { board: 'rpi4' } },
  });
  const assigned = await leases.waitFor(NS, lease.metadata.name!, LeaseState.assigned, 10_000);
  await leases.release(NS, 'ci-1');
  const ended = await leases.waitFor(NS, 'ci-1', LeaseState.ended, 10_000);
  const pod = await until('the Pod to succeed', async () => {
    const p = await api.pod('pool-0');
    return p.status?.phase === 'Succeeded' ? p : undefined;
  });
  const exporter = await until('the exporter offline', async () => {
    const e = await api.exporter('pool-0');
    return e.status?.exporterStatus === 'Offline' ? e : undefined;
  });
  return {
    assignedTo: assigned.status?.exporterRef?.name,
    owner: assigned.metadata.ownerReferences?.map((r) => `${r.kind}/${r.name}`),
    assignedReady: cond(assigned, 'Ready'),
    ended: [ended.status?.ended, cond(ended, 'Ready')],
    pod: [pod.status?.phase, pod.status?.conditions?.find((c) => c.type === 'Ready')?.reason],
    exporter: [cond(exporter, 'Registered'), cond(exporter, 'Online'), exporter.status?.leaseRef],
  };
}

export interface RemoteWorld {
  readonly cluster: TestCluster;
  readonly sims: RemoteSimulators;
  /** A client as the `controller` identity. */
  readonly api: ReturnType<typeof client>;
  stop(): Promise<void>;
}

/** A test cluster without in-process simulators, and the remote simulators on its URL as `identity`. */
export async function startRemoteWorld(identity: string): Promise<RemoteWorld> {
  const cluster = await startTestCluster({ namespaces: [NS] });
  const sims = await startRemoteSimulators({
    kubeConfig: cluster.kubeConfigFor(identity),
    namespaces: [NS],
    jumpstarter: true,
    kubelet: { bootDelayMs: 50 },
  });
  // Nothing runs in process: every reaction came over HTTP.
  expect(cluster.jumpstarter).toBeUndefined();
  expect(cluster.kubelet).toBeUndefined();
  return {
    cluster,
    sims,
    api: client(cluster.kubeConfigFor('controller', NS)),
    async stop() {
      await sims.stop();
      await cluster.stop();
    },
  };
}
