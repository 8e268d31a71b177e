import { beforeAll, describe, expect, it } from '@jest/globals';
import * as path from 'node:path';
import { README_PULUMI_EXAMPLE as example, importScratch } from '../support/readme-examples';
import {
  FACT_TABLE_CRDS,
  UPSTREAM_STRICT_CRDS,
  admissionProblems,
  referenceCrds,
} from '../support/upstream-admission';
import { describeWithUpstream } from '../support/upstream-reference';
import { MockStack, valueOf } from './support/mock-stack';

const scratch = path.resolve(process.cwd(), 'test/pulumi/.readme-example.ts');

const stack = await MockStack.start();

// Run as written: jest maps 'virtual-exporters/pulumi' to the sources.
const program = await importScratch<{ selector: import('@pulumi/pulumi').Output<unknown> }>(scratch, example);
let settled: Promise<void> | undefined;
const settle = () => (settled ??= stack.settle());

/** The pool's custom resources, as the program registers them. */
const poolObjects = () =>
  stack
    .all()
    .filter((r) => r.type.startsWith('kubernetes:virtualtarget.jumpstarter.dev/'))
    .map((r) => r.inputs);

describe('README Pulumi example', () => {
  beforeAll(settle);

  it('is a short program that installs the controller and a pool after the CRDs', async () => {
    expect(example.split('\n').length).toBeLessThanOrEqual(30);

    const names = stack.all().map((r) => `${r.type}::${r.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'kubernetes:apps/v1:Deployment::lab-exporter-set-controller-qemu',
        'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:VirtualTargetClass::x86-64-ci',
        'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet::x86-64-ci',
      ]),
    );
    const crds = stack.all().filter((r) => r.type.endsWith(':CustomResourceDefinition'));
    const set = stack.one('kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet', 'x86-64-ci');
    expect(set.dependsOn).toEqual(expect.arrayContaining(crds.map((crd) => crd.urn)));
    expect(set.inputs.spec).toMatchObject({
      minAvailableReplicas: 3,
      maxReplicas: 10,
      scaleDownCooldown: '10m',
    });
    expect(await valueOf(program.selector)).toEqual({
      matchLabels: { board: 'x86-64-virtual', virtual: 'true' },
    });
  });
});

describe("README Pulumi example and upstream's CRDs", () => {
  beforeAll(settle);

  it('writes a pool the upstream-strict CRD variants and the fact-table CRDs admit unchanged', () => {
    expect(poolObjects()).toHaveLength(2);
    expect(admissionProblems(poolObjects(), UPSTREAM_STRICT_CRDS)).toEqual([]);
    expect(admissionProblems(poolObjects(), FACT_TABLE_CRDS)).toEqual([]);
  });
});

describeWithUpstream("README Pulumi example and upstream's own CRDs", () => {
  beforeAll(settle);

  it('writes a pool they admit unchanged', () => {
    expect(admissionProblems(poolObjects(), referenceCrds())).toEqual([]);
  });
});
