/**
 * A Corellium class and set written with the constructs: the provisioner's parameter checks run at
 * synth time, and what is synthesized is admitted unchanged by upstream's CRDs.
 */
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../lib/api';
import { ExporterSet, VirtualTargetClass } from '../../lib/cdk8s';
import { getProvisioner } from '../../lib/provisioners';
import { FACT_TABLE_CRDS, UPSTREAM_STRICT_CRDS, admissionProblems } from '../support/upstream-admission';
import { synth, testChart } from '../support/synth';

const PROJECT_ID = '778f00af-5e9b-40e6-8e7f-c4f14b632e9c';

function corelliumPool(setParameters?: JsonObject, drivers: { name?: string; type: string }[] = []) {
  const chart = testChart('lab');
  const cls = new VirtualTargetClass(chart, 'Kronos', {
    metadata: { name: 'corellium-kronos' },
    provisioner: 'corellium.jumpstarter.dev',
    credentialsSecretName: 'corellium-creds',
    bindingMode: 'WaitForFirstConsumer',
    parameters: {
      api: { host: 'app.corellium.com', projectId: PROJECT_ID },
      device: { flavor: 'kronos', os: '1.1.1' },
    },
  });
  new ExporterSet(chart, 'Cloud', {
    metadata: { name: 'kronos-cloud' },
    virtualTargetClass: cls,
    maxReplicas: 4,
    ...(setParameters ? { parameters: setParameters } : {}),
    template: { labels: { board: 'kronos', virtual: 'true' }, drivers },
  });
  return chart;
}

describe('a corellium.jumpstarter.dev pool written with the constructs', () => {
  it('is validated by the Corellium provisioner, not accepted unchecked as a reserved name', () => {
    expect(getProvisioner('corellium.jumpstarter.dev')?.name).toBe('corellium.jumpstarter.dev');
  });

  it("synthesizes a class and a set that upstream's CRDs admit unchanged", () => {
    const objects = synth(corelliumPool({ device: { build: 'Critical Application Monitor (Baremetal)' } }));
    expect(objects.map((o) => o.kind)).toEqual(['VirtualTargetClass', 'ExporterSet']);
    expect(admissionProblems(objects as never, UPSTREAM_STRICT_CRDS)).toEqual([]);
    expect(admissionProblems(objects as never, FACT_TABLE_CRDS)).toEqual([]);
  });

  it('reports invalid merged parameters at synth time, on the set, with the path and the fix', () => {
    expect(() => synth(corelliumPool({ api: { projectId: 'kronos-project' } }))).toThrow(
      /\[test\/Cloud\] parameters\.api\.projectId="kronos-project": must be the UUID of a Corellium project/,
    );
  });

  it('reports a required parameter the merge leaves out (a set clearing it with null)', () => {
    expect(() => synth(corelliumPool({ device: { flavor: null } }))).toThrow(
      /\[test\/Cloud\] parameters\.device\.flavor: is required: the Corellium device flavor to create/,
    );
  });

  it('reports a driver that would take the name of the Corellium driver the provisioner adds', () => {
    expect(() =>
      synth(
        corelliumPool(undefined, [{ name: 'corellium', type: 'jumpstarter_driver_power.driver.MockPower' }]),
      ),
    ).toThrow(/\[test\/Cloud\] template\.drivers\[0\]\.name="corellium": driver "corellium"/);
  });
});
