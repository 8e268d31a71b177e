/**
 * The JEP's Android pool written with the constructs: the provisioner's parameter checks run at synth
 * time, and what is synthesized is admitted unchanged by upstream's CRDs.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../lib/api';
import { ExporterSet, VirtualTargetClass } from '../../lib/cdk8s';
import { FACT_TABLE_CRDS, UPSTREAM_STRICT_CRDS, admissionProblems } from '../support/upstream-admission';
import { synth, testChart } from '../support/synth';

function androidPool(setParameters?: JsonObject) {
  const chart = testChart('lab');
  const cls = new VirtualTargetClass(chart, 'Pixel7', {
    metadata: { name: 'android-pixel7' },
    provisioner: 'android.jumpstarter.dev',
    parameters: { apiLevel: 34, device: 'pixel_7', resources: { cpu: 4, memory: '4Gi' }, kvm: true },
  });
  new ExporterSet(chart, 'Emulator', {
    metadata: { name: 'pixel7-emulator' },
    virtualTargetClass: cls,
    maxReplicas: 10,
    ...(setParameters ? { parameters: setParameters } : {}),
    template: {
      labels: { device: 'pixel7', os: 'android', 'api-level': '34', virtual: 'true' },
      drivers: [
        { type: 'jumpstarter_driver_android.driver.AdbDriver' },
        { type: 'jumpstarter_driver_power.driver.EmulatorPower' },
      ],
    },
  });
  return chart;
}

describe('an android.jumpstarter.dev pool written with the constructs', () => {
  it("synthesizes a class and a set that upstream's CRDs admit unchanged", () => {
    const objects = synth(androidPool({ abi: 'arm64-v8a' }));
    expect(objects.map((o) => o.kind)).toEqual(['VirtualTargetClass', 'ExporterSet']);
    expect(admissionProblems(objects as never, UPSTREAM_STRICT_CRDS)).toEqual([]);
    expect(admissionProblems(objects as never, FACT_TABLE_CRDS)).toEqual([]);
  });

  it('reports invalid merged parameters at synth time, on the set, with the path and the rule', () => {
    expect(() => synth(androidPool({ apiLevel: 19, resources: { memory: 'lots' } }))).toThrow(
      /\[test\/Emulator\] parameters\.apiLevel=19: must be a whole number from 21 to 40/,
    );
  });
});
