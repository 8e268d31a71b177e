/**
 * A controller started with `--provisioner android.jumpstarter.dev` on the test cluster: a set fills
 * its warm buffer with Pods of the QEMU layout running the emulator runtime, each told which AVD to
 * prepare and configured with the emulator driver that starts it.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import type { TestCluster } from 'virtual-exporters-test-cluster';
import { resolveProvisionerFlag } from '../../src/provisioner-flag';
import { NS, createClass, createSet, getSet, instancesOf, scenarioPerTest, until } from './support';

const startScenario = scenarioPerTest();

const list = (cluster: TestCluster, plural: string) =>
  cluster.store.list(cluster.registry.get('', 'v1', plural)!, NS).items as any[];

describe('android.jumpstarter.dev in the controller', () => {
  it('fills the warm buffer with emulator Pods, KVM on the runtime only', async () => {
    const { cluster } = await startScenario({
      speedUp: 20,
      controller: { provisioner: resolveProvisionerFlag('android.jumpstarter.dev') },
    });
    createClass(cluster, 'qemu', {
      provisioner: 'android.jumpstarter.dev',
      parameters: { apiLevel: 35, device: 'pixel_8', resources: { cpu: 2, memory: '3Gi' }, kvm: true },
    });
    createSet(cluster, 'pixel8', { minAvailableReplicas: 2, maxReplicas: 3 });
    await until('2 available', () => getSet(cluster, 'pixel8')?.status?.availableReplicas === 2);

    const names = instancesOf(cluster, 'pixel8')
      .map((e) => e.metadata!.name!)
      .sort();
    const pods = list(cluster, 'pods');
    expect(pods.map((p) => p.metadata.name).sort()).toEqual(names);
    for (const pod of pods) {
      expect(pod.spec.initContainers.map((c: any) => c.name)).toEqual([
        'copy-jumpstarter-exec',
        'target-runtime',
      ]);
      expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['exporter']);
      const runtime = pod.spec.initContainers[1];
      expect(runtime.image).toBe('quay.io/jumpstarter-dev/virtual/android-emulator-runtime:latest');
      expect(runtime.resources).toEqual({ limits: { 'devices.kubevirt.io/kvm': '1' } });
      expect(runtime.env).toEqual(
        expect.arrayContaining([
          { name: 'ANDROID_API_LEVEL', value: '35' },
          { name: 'ANDROID_AVD_NAME', value: 'pixel_8-api35-x86_64' },
          { name: 'ANDROID_CPU_CORES', value: '2' },
          { name: 'ANDROID_RAM_SIZE', value: '3072' },
        ]),
      );
      expect(pod.spec.containers[0]).not.toHaveProperty('resources');
    }

    const emulators = list(cluster, 'secrets')
      .filter((s) => s.metadata.name.startsWith('exporter-config-'))
      .map((s) => parse(Buffer.from(s.data['config.yaml'], 'base64').toString('utf8')).export.emulator);
    expect(emulators).toHaveLength(2);
    for (const emulator of emulators) {
      expect(emulator).toEqual({
        type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator',
        config: { avd_name: 'pixel_8-api35-x86_64', headless: true },
      });
    }
  });
});
