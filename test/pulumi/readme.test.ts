import { afterAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MockStack, valueOf } from './support/mock-stack';

const readme = fs.readFileSync(path.resolve(process.cwd(), 'README.md'), 'utf8');
const example =
  /## Pulumi \(`virtual-exporters\/pulumi`\)\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const scratch = path.resolve(process.cwd(), 'test/pulumi/.readme-example.ts');

const stack = await MockStack.start();

describe('README Pulumi example', () => {
  afterAll(() => fs.rmSync(scratch, { force: true }));

  it('is a short program that installs the controller and a pool after the CRDs', async () => {
    expect(example.split('\n').length).toBeLessThanOrEqual(30);
    // Run as written: jest maps 'virtual-exporters/pulumi' to the sources.
    fs.writeFileSync(scratch, example);
    const program = (await import(scratch)) as { selector: import('@pulumi/pulumi').Output<unknown> };
    await stack.settle();

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
