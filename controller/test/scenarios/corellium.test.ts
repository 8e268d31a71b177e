/**
 * A controller started with `--provisioner corellium.jumpstarter.dev` on the test cluster: a set
 * fills its warm buffer with exporter-only Pods, each holding the class's API token by reference and
 * nothing else from it, and each configured with a Corellium driver for a device of its own.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import { resolveProvisionerFlag } from '../../src/provisioner-flag';
import {
  NS,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from './support';

const startScenario = scenarioPerTest();
const PROJECT_ID = '778f00af-5e9b-40e6-8e7f-c4f14b632e9c';

const pods = (cluster: TestCluster) =>
  cluster.store.list(cluster.registry.get('', 'v1', 'pods')!, NS).items as any[];

function createCredentials(cluster: TestCluster): void {
  cluster.store.create(cluster.registry.get('', 'v1', 'secrets')!, NS, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'corellium-creds' },
    data: { token: Buffer.from('corellium-api-token').toString('base64') },
  });
}

describe('corellium.jumpstarter.dev in the controller', () => {
  it('reports a class without credentials on the set, naming the Secret key to create, and creates no Pod', async () => {
    const { cluster } = await startScenario({
      speedUp: 20,
      controller: { provisioner: resolveProvisionerFlag('corellium.jumpstarter.dev') },
    });
    createClass(cluster, 'qemu', {
      provisioner: 'corellium.jumpstarter.dev',
      parameters: { api: { host: 'app.corellium.com', projectId: PROJECT_ID }, device: { flavor: 'kronos' } },
    });
    createSet(cluster, 'kronos', { minAvailableReplicas: 1, maxReplicas: 2 });
    await until(
      'ReplicaFailure',
      () => condition(getSet(cluster, 'kronos'), 'ReplicaFailure')?.status === 'True',
    );
    const failure = condition(getSet(cluster, 'kronos'), 'ReplicaFailure')!;
    expect(failure.reason).toBe('FailedRender');
    expect(failure.message).toContain(
      'virtualTargetClass.spec.credentialsSecretRef: a corellium.jumpstarter.dev class needs credentialsSecretRef',
    );
    expect(pods(cluster)).toEqual([]);
  });

  it('fills the warm buffer with exporter-only Pods once the class credentials exist', async () => {
    const { cluster } = await startScenario({
      speedUp: 20,
      controller: { provisioner: resolveProvisionerFlag('corellium.jumpstarter.dev') },
    });
    createClass(cluster, 'qemu', {
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretRef: { name: 'corellium-creds' },
      parameters: { api: { host: 'app.corellium.com', projectId: PROJECT_ID }, device: { flavor: 'kronos' } },
    });
    createSet(cluster, 'kronos', { minAvailableReplicas: 2, maxReplicas: 4 });

    // The Pods wait for the credentials Secret, as a kubelet does for a missing secretKeyRef.
    await until(
      '2 Pods waiting for the credentials',
      () =>
        pods(cluster).filter((p) => p.status?.phase === 'Pending').length === 2 &&
        pods(cluster).every((p) =>
          (p.status?.containerStatuses ?? []).some(
            (c: any) => c.state?.waiting?.message === 'secret "corellium-creds" not found',
          ),
        ),
    );
    expect(getSet(cluster, 'kronos')?.status?.availableReplicas ?? 0).toBe(0);

    createCredentials(cluster);
    await until('2 available', () => getSet(cluster, 'kronos')?.status?.availableReplicas === 2);

    const names = instancesOf(cluster, 'kronos')
      .map((e) => e.metadata!.name!)
      .sort();
    expect(
      pods(cluster)
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(names);
    for (const pod of pods(cluster)) {
      expect(pod.spec.initContainers ?? []).toEqual([]);
      expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['exporter']);
      expect(pod.spec.containers[0].env).toEqual([
        { name: 'CORELLIUM_API_HOST', value: 'app.corellium.com' },
        {
          name: 'CORELLIUM_API_TOKEN',
          valueFrom: { secretKeyRef: { name: 'corellium-creds', key: 'token' } },
        },
      ]);
      expect(JSON.stringify(pod)).not.toContain(Buffer.from('corellium-api-token').toString('base64'));
      expect(JSON.stringify(pod)).not.toContain('corellium-api-token');
    }

    const secrets = cluster.store.list(cluster.registry.get('', 'v1', 'secrets')!, NS).items as any[];
    const devices = secrets
      .filter((s) => s.metadata.name.startsWith('exporter-config-'))
      .map((s) => parse(Buffer.from(s.data['config.yaml'], 'base64').toString('utf8')))
      .map((c) => c.export.corellium.config);
    expect(devices.map((d) => d.device_name).sort()).toEqual(names);
    for (const device of devices) {
      expect(device).toMatchObject({ project_id: PROJECT_ID, device_flavor: 'kronos' });
      expect(JSON.stringify(device)).not.toContain('corellium-api-token');
    }
  });
});
