/**
 * What the remote simulators' tests do through the API, as any client would: Exporters, a QEMU
 * instance rendered by the provisioner (as the controller creates it), polling reads.
 */
import { CoreV1Api, CustomObjectsApi, KubernetesObjectApi, type KubeConfig } from '@kubernetes/client-node';
import { qemuProvisioner, type Exporter } from 'virtual-exporters/internal';

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
