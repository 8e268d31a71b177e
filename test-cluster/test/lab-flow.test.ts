/**
 * The whole test cluster together, through the real client library: an instance rendered by the
 * QEMU provisioner (as the controller will create it) boots on the kubelet simulator, registers
 * with the Jumpstarter simulator, gets a lease, and exits when the lease ends.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, CustomObjectsApi, KubernetesObjectApi } from '@kubernetes/client-node';
import { exporterCrd, qemuProvisioner, type Exporter } from 'virtual-exporters/internal';
import { startTestCluster, type TestCluster } from '../src';

const NS = 'lab';
let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const condition = (obj: any, type: string) => obj?.status?.conditions?.find((c: any) => c.type === type);

describe('test cluster: Jumpstarter and kubelet simulators behind the API server', () => {
  it('serves a lease from a QEMU instance and ends the instance with its lease', async () => {
    cluster = await startTestCluster({ namespaces: [NS], speedUp: 20, jumpstarter: true, kubelet: true });
    const kc = cluster.kubeConfigFor('controller', NS);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const core = kc.makeApiClient(CoreV1Api);
    const objects = KubernetesObjectApi.makeApiClient(kc);

    const group = exporterCrd.spec.group;
    const created = (await custom.createNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      namespace: NS,
      plural: 'exporters',
      body: {
        apiVersion: `${group}/v1alpha1`,
        kind: 'Exporter',
        metadata: { name: 'pool-0', labels: { board: 'rpi4', 'exporterset.jumpstarter.dev/name': 'pool' } },
        spec: {},
      },
    })) as Exporter;

    // The Jumpstarter simulator issues the credential and the endpoint, as upstream does.
    const exporter = await until('the credential', async () => {
      const e = (await custom.getNamespacedCustomObject({
        group,
        version: 'v1alpha1',
        namespace: NS,
        plural: 'exporters',
        name: 'pool-0',
      })) as Exporter;
      return e.status?.credential?.name && e.status.endpoint ? e : undefined;
    });
    const secret = await core.readNamespacedSecret({
      name: exporter.status!.credential!.name,
      namespace: NS,
    });
    const token = Buffer.from(secret.data!.token, 'base64').toString('utf8');

    const set: any = {
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
    const cls: any = {
      metadata: { name: 'qemu', namespace: NS },
      spec: { provisioner: 'qemu.jumpstarter.dev' },
    };
    const rendered = qemuProvisioner.render({
      exporterSet: set,
      virtualTargetClass: cls,
      parameters: { arch: 'x86_64' },
      exporter: { ...created, status: exporter.status },
      token,
    });
    for (const obj of rendered.objects) await objects.create(obj as any);

    // The Pod boots, the exporter registers, and Jumpstarter reports it online.
    await until('Online=True', async () => {
      const e = await custom.getNamespacedCustomObject({
        group,
        version: 'v1alpha1',
        namespace: NS,
        plural: 'exporters',
        name: 'pool-0',
      });
      return condition(e, 'Online')?.status === 'True' ? e : undefined;
    });

    const lease = cluster.jumpstarter!.leases.create({
      namespace: NS,
      name: 'ci-1',
      selector: { matchLabels: { board: 'rpi4' } },
      duration: '1h',
    });
    const assigned = await cluster.jumpstarter!.leases.waitFor(NS, lease.metadata.name!, (l) =>
      Boolean(l.status?.exporterRef?.name),
    );
    expect(assigned.status?.exporterRef?.name).toBe('pool-0');
    expect(condition(assigned, 'Ready')?.status).toBe('True');
    // Served at once from a warm instance: the lease never waited, so it never got Pending.
    expect(condition(assigned, 'Pending')).toBeUndefined();

    cluster.jumpstarter!.leases.release(NS, 'ci-1');
    // exitOnLeaseEnd (ExitAndReplace): the exporter exits and its Pod succeeds.
    const pod = await until('the Pod to succeed', async () => {
      const p = await core.readNamespacedPod({ name: 'pool-0', namespace: NS });
      return p.status?.phase === 'Succeeded' ? p : undefined;
    });
    expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Exporter', name: 'pool-0' });
    const ended = cluster.jumpstarter!.leases.get(NS, 'ci-1');
    expect(ended?.status?.ended).toBe(true);
    expect(ended?.metadata.labels?.['jumpstarter.dev/lease-ended']).toBe('true');
    expect(cluster.jumpstarter!.errors).toEqual([]);
    expect(cluster.kubelet!.errors).toEqual([]);

    // Deleting the Exporter garbage-collects its Pod, config Secret, credential and leases.
    await custom.deleteNamespacedCustomObject({
      group,
      version: 'v1alpha1',
      namespace: NS,
      plural: 'exporters',
      name: 'pool-0',
    });
    await until('garbage collection', async () => {
      const pods = await core.listNamespacedPod({ namespace: NS });
      const secrets = await core.listNamespacedSecret({ namespace: NS });
      const leases = cluster!.jumpstarter!.leases.list(NS);
      return pods.items.length + secrets.items.length + leases.length === 0 ? true : undefined;
    });
    // Every request of this test went through the API server as the `controller` identity.
    expect(cluster.counters.identities()).toContain('controller');
  });
});
