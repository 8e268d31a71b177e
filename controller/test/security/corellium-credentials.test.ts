/**
 * The Corellium API token (the class's credentials Secret, key `token`) with the real controller
 * running `corellium.jumpstarter.dev` at trace level through a warm buffer, a lease served and
 * recycled: it stays in its own Secret — not in any other object of the cluster (the config Secrets
 * and Pods included), not in the logs, not in the metrics — and the Pods name its key, in the
 * exporter container alone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { startManager, type Manager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import { resolveProvisionerFlag } from '../../src/provisioner-flag';
import { startTestCluster, type KubeObject, type TestCluster } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  controllerOptions,
  createClass,
  createSet,
  getSet,
  until,
} from '../scenarios/support';

const API_TOKEN = 'corellium-api-token-7c1e9b04d2a6f835';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function textOf(object: KubeObject): string {
  const data = (object.data ?? {}) as Record<string, string>;
  const decoded =
    object.kind === 'Secret' ? Object.values(data).map((v) => Buffer.from(v, 'base64').toString('utf8')) : [];
  return [JSON.stringify(object), ...decoded].join('\n');
}

const leaked = (text: string) => text.includes(API_TOKEN) || text.includes(b64(API_TOKEN));

let cluster: TestCluster | undefined;
let manager: Manager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.stop();
  cluster = manager = undefined;
});

describe('corellium credentials', () => {
  it('stay in their own Secret: never in another object, the logs or the metrics', async () => {
    cluster = await startTestCluster({ namespaces: [NS], speedUp: 20, jumpstarter: true, kubelet: true });
    const c = cluster;
    const lines: string[] = [];
    const logger = createLogger({
      level: 'trace',
      destination: { write: (line: string) => void lines.push(line) },
    });
    manager = await startManager(
      controllerOptions({
        logLevel: 'trace',
        provisioner: resolveProvisionerFlag('corellium.jumpstarter.dev'),
      }),
      { kubeConfig: c.kubeConfigFor(CONTROLLER, NS), clock: c.clock, logger },
    );
    c.store.create(c.registry.get('', 'v1', 'secrets')!, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'corellium-creds' },
      data: { token: b64(API_TOKEN) },
    });
    createClass(c, 'qemu', {
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretRef: { name: 'corellium-creds' },
      parameters: {
        api: { host: 'app.corellium.com', projectId: '778f00af-5e9b-40e6-8e7f-c4f14b632e9c' },
        device: { flavor: 'kronos' },
      },
    });
    createSet(c, 'pool', { minAvailableReplicas: 2, maxReplicas: 4 });
    const status = () => getSet(c, 'pool')?.status;
    await until('2 available', () => status()?.availableReplicas === 2);

    const leases = c.jumpstarter!.leases;
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await until('leased', () => status()?.leasedReplicas === 1);
    leases.release(NS, lease.metadata.name!);
    await until(
      'recycled and refilled',
      () => status()?.leasedReplicas === 0 && status()?.availableReplicas === 2,
    );
    await c.settle();

    const everything = c.registry.all().flatMap((rt) => c.store.list(rt, undefined).items);
    // The search finds the token where it is.
    const own = everything.find((o) => o.kind === 'Secret' && o.metadata.name === 'corellium-creds');
    expect(leaked(textOf(own!))).toBe(true);
    const leaks = everything
      .filter((o) => !(o.kind === 'Secret' && o.metadata.name === 'corellium-creds'))
      .filter((o) => leaked(textOf(o)))
      .map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    if (leaked(lines.join(''))) leaks.push("the controller's logs");
    if (leaked(await manager.metrics.render())) leaks.push("the controller's metrics");
    expect(leaks).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);

    const pods = everything.filter((o) => o.kind === 'Pod');
    expect(pods.length).toBeGreaterThanOrEqual(2);
    for (const pod of pods) {
      const spec = pod.spec as { initContainers?: unknown[]; containers: { name: string }[] };
      expect(spec.initContainers ?? []).toEqual([]);
      expect(spec.containers.map((x) => x.name)).toEqual(['exporter']);
      expect(JSON.stringify(pod).match(/corellium-creds/g)).toHaveLength(1);
      expect((spec.containers[0] as { env?: unknown[] }).env).toContainEqual({
        name: 'CORELLIUM_API_TOKEN',
        valueFrom: { secretKeyRef: { name: 'corellium-creds', key: 'token' } },
      });
    }
  });
});
