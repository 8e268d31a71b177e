import { describe, expect, it } from '@jest/globals';
import { Duration, Size } from 'cdk8s';
import * as cdk8s from '../../lib/cdk8s';
import { withCdk8sPlusSettings } from '../support/kplus-differences';
import { synth, testChart } from '../support/synth';
import { MockStack } from './support/mock-stack';

const stack = await MockStack.start();
const pulumiApi = await import('../../lib/pulumi');

type Manifest = Record<string, any>;

/** Comparable form: plain JSON, in a fixed order (the front ends register objects in different orders). */
function normalise(objects: readonly Manifest[]): Manifest[] {
  const key = (o: Manifest) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
  return JSON.parse(JSON.stringify(objects)).sort((a: Manifest, b: Manifest) => key(a).localeCompare(key(b)));
}

const pool = {
  arch: 'aarch64' as const,
  machineType: 'virt',
  cpu: 4,
  firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc' },
  kvm: true,
  extraParameters: { bootTimeout: 120 },
  labels: { board: 'rpi4', virtual: 'true' },
  annotations: { 'lab.example.com/owner': 'boards' },
  drivers: [
    { type: 'jumpstarter_driver_qemu.driver.Qemu' },
    { type: 'jumpstarter_driver_power.driver.QemuPower' },
  ],
  minReplicas: 1,
  maxReplicas: 20,
  minAvailableReplicas: 2,
  recycleStrategy: 'InPlaceReuse' as const,
  scheduling: { nodeSelector: { 'kubernetes.io/arch': 'arm64' } },
};
const android = {
  provisioner: 'android.jumpstarter.dev',
  credentialsSecretName: 'emulator-creds',
  bindingMode: 'WaitForFirstConsumer' as const,
  parameters: { device: 'pixel7' },
};
const androidSet = {
  maxReplicas: 0,
  template: { labels: { board: 'pixel7' }, drivers: [{ ref: 'android.adb' }] },
};
const controller = { namespace: 'lab', watchNamespaces: ['lab'], logLevel: 'debug' as const };

describe('the same lab through cdk8s and through Pulumi', () => {
  it('yields identical Kubernetes objects', async () => {
    const chart = testChart();
    new cdk8s.ExporterSetController(chart, 'Controller', controller);
    new cdk8s.QemuPool(chart, 'Rpi4', {
      ...pool,
      metadata: { name: 'rpi4', namespace: 'lab', labels: { team: 'boards' } },
      memory: Size.gibibytes(8),
      storage: Size.gibibytes(16),
      scaleDownCooldown: Duration.minutes(10),
    });
    const cls = new cdk8s.VirtualTargetClass(chart, 'Android', {
      ...android,
      metadata: { name: 'android', namespace: 'lab' },
    });
    new cdk8s.ExporterSet(chart, 'Pixel7', {
      ...androidSet,
      metadata: { name: 'pixel7', namespace: 'lab' },
      virtualTargetClass: cls,
      scaleDownCooldown: Duration.seconds(90),
    });
    const fromCdk8s = synth(chart);

    const ctl = new pulumiApi.ExporterSetController('same', controller);
    const rpi4 = new pulumiApi.QemuPool(
      'same-rpi4',
      {
        ...pool,
        metadata: { name: 'rpi4', namespace: 'lab', labels: { team: 'boards' } },
        memory: '8Gi',
        storage: '16Gi',
        scaleDownCooldown: '10m',
      },
      { dependsOn: ctl.crds },
    );
    const androidClass = new pulumiApi.VirtualTargetClass(
      'same-android',
      { ...android, metadata: { name: 'android', namespace: 'lab' } },
      { dependsOn: ctl.crds },
    );
    const pixel7 = new pulumiApi.ExporterSet(
      'same-pixel7',
      {
        ...androidSet,
        metadata: { name: 'pixel7', namespace: 'lab' },
        virtualTargetClass: androidClass,
        scaleDownCooldown: '1m30s',
      },
      { dependsOn: ctl.crds },
    );
    await stack.settle();
    const roots = await Promise.all([ctl, rpi4, androidClass, pixel7].map((c) => stack.of(c)));
    const fromPulumi = roots.flatMap((root) => stack.kubernetesObjects(root));

    expect(fromPulumi).toHaveLength(fromCdk8s.length);
    // The same objects, but for what cdk8s-plus writes into the installer's ServiceAccount, roles and
    // Deployment beyond the neutral objects Pulumi applies, each named in test/support/kplus-differences.ts.
    expect(normalise(fromCdk8s)).toEqual(withCdk8sPlusSettings(normalise(fromPulumi)));
  });
});
