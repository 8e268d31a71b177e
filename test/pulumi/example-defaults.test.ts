import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { MockStack } from './support/mock-stack';

// A stack with no config at all: the program must fall back to what Pulumi.yaml declares, so a
// `pulumi up` and these tests agree on the defaults.
const project = parse(
  fs.readFileSync(path.resolve(process.cwd(), 'examples/pulumi-lab/Pulumi.yaml'), 'utf8'),
);
const stack = await MockStack.start(project.name, 'defaults');
await import('../../examples/pulumi-lab/index');
await stack.settle();

const defaults = Object.fromEntries(
  Object.entries<{ default: unknown }>(project.config).map(([key, spec]) => [key, spec.default]),
);

function setSpec(pool: string): Record<string, any> {
  const set = stack.childrenOf(stack.one('virtual-exporters:index:ExporterSet', pool))[0];
  expect(set.inputs.metadata.namespace).toBe(defaults.namespace);
  return set.inputs.spec;
}

describe('examples/pulumi-lab without stack config', () => {
  it('uses the defaults Pulumi.yaml declares', () => {
    expect(setSpec('x86-64-ci')).toMatchObject({
      minAvailableReplicas: defaults.x86WarmReplicas,
      maxReplicas: defaults.x86MaxReplicas,
    });
    expect(setSpec('rpi4-virtual')).toMatchObject({
      minAvailableReplicas: defaults.rpi4WarmReplicas,
      maxReplicas: defaults.rpi4MaxReplicas,
    });
    const deployment = stack.one('kubernetes:apps/v1:Deployment', 'lab-exporter-set-controller-qemu');
    expect(deployment.inputs.metadata.namespace).toBe(defaults.namespace);
  });
});
