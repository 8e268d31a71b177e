import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { exporterOperationCrd, exporterSetCrd, virtualTargetClassCrd } from '../../lib/crds';
import { admit } from '../support/crd-validator';
import {
  FACT_TABLE_CRDS,
  UPSTREAM_STRICT_CRDS,
  admissionProblems,
  referenceCrds,
} from '../support/upstream-admission';
import { describeWithUpstream } from '../support/upstream-reference';
import { MockStack, valueOf, type RegisteredResource } from './support/mock-stack';

const dir = path.resolve(process.cwd(), 'examples/pulumi-lab');
const project = parse(fs.readFileSync(path.join(dir, 'Pulumi.yaml'), 'utf8'));

// A stack that sets the namespace and the x86 pool's sizes and leaves the rpi4 pool's to the defaults.
const stack = await MockStack.start(project.name, 'lab');
pulumi.runtime.setConfig(`${project.name}:namespace`, 'lab-a');
pulumi.runtime.setConfig(`${project.name}:x86WarmReplicas`, '3');
pulumi.runtime.setConfig(`${project.name}:x86MaxReplicas`, '12');
const program = await import('../../examples/pulumi-lab/index');
await stack.settle();

const SET_CR = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet';
const CLASS_CR = 'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:VirtualTargetClass';
const CRD = 'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition';

function objectsOf(type: string, name: string): RegisteredResource[] {
  const under = (r: RegisteredResource): RegisteredResource[] => [r, ...stack.childrenOf(r).flatMap(under)];
  return under(stack.one(type, name)).filter((r) => r.custom);
}

/** The custom resources of the pools, as the program registers them. */
function poolObjects(): Record<string, any>[] {
  return stack
    .all()
    .filter((r) => r.type === SET_CR || r.type === CLASS_CR)
    .map((r) => r.inputs);
}

describe('examples/pulumi-lab', () => {
  it('is a Node.js Pulumi project that declares its config with defaults', () => {
    expect(project.runtime).toBe('nodejs');
    expect(typeof project.description).toBe('string');
    expect(Object.keys(project.config)).toEqual([
      'namespace',
      'x86WarmReplicas',
      'x86MaxReplicas',
      'rpi4WarmReplicas',
      'rpi4MaxReplicas',
    ]);
  });

  it('installs the controller into the configured namespace, reconciling that namespace only', () => {
    const objects = objectsOf('virtual-exporters:index:ExporterSetController', 'lab').map((r) => r.inputs);
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    expect(deployment.metadata).toMatchObject({ name: 'exporter-set-controller-qemu', namespace: 'lab-a' });
    expect(deployment.spec.template.spec.containers[0].args).toContain('--namespace=lab-a');
    expect(objects.filter((o) => o.kind === 'Role').map((o) => o.metadata.namespace)).toEqual([
      'lab-a',
      'lab-a',
    ]);
    expect(objects.filter((o) => o.kind === 'ClusterRole')).toEqual([]);
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toEqual([
      virtualTargetClassCrd,
      exporterOperationCrd,
      exporterSetCrd,
    ]);
  });

  it('sizes the x86 pool from the stack config and the rpi4 pool from the Pulumi.yaml defaults', () => {
    const x86 = objectsOf('virtual-exporters:index:QemuPool', 'x86-64-ci').find((r) => r.type === SET_CR)!;
    expect(x86.inputs.metadata).toEqual({ name: 'x86-64-ci', namespace: 'lab-a' });
    expect(x86.inputs.spec).toMatchObject({
      minAvailableReplicas: 3,
      maxReplicas: 12,
      scaleDownCooldown: '10m',
    });

    const rpi4 = objectsOf('virtual-exporters:index:QemuPool', 'rpi4-virtual');
    const set = rpi4.find((r) => r.type === SET_CR)!;
    expect(set.inputs.spec).toMatchObject({
      minAvailableReplicas: project.config.rpi4WarmReplicas.default,
      maxReplicas: project.config.rpi4MaxReplicas.default,
      virtualTargetClassName: 'qemu-rpi4',
    });
    const cls = rpi4.find((r) => r.type === CLASS_CR)!;
    expect(cls.inputs.metadata).toEqual({ name: 'qemu-rpi4', namespace: 'lab-a' });
    expect(cls.inputs.spec.parameters).toEqual({
      arch: 'aarch64',
      machineType: 'virt',
      resources: { cpu: 4, memory: '8Gi', storage: '16Gi' },
      kvm: true,
    });
  });

  it('creates every pool object after the CRDs, in a form the CRDs admit', () => {
    const crds = stack.all().filter((r) => r.type === CRD);
    expect(crds).toHaveLength(3);
    const pools = [
      ...objectsOf('virtual-exporters:index:QemuPool', 'x86-64-ci'),
      ...objectsOf('virtual-exporters:index:QemuPool', 'rpi4-virtual'),
    ].filter((r) => r.type === SET_CR || r.type === CLASS_CR);
    expect(pools).toHaveLength(4);
    for (const r of pools) {
      expect(r.dependsOn).toEqual(expect.arrayContaining(crds.map((crd) => crd.urn)));
      const result = admit((r.type === SET_CR ? exporterSetCrd : virtualTargetClassCrd) as any, r.inputs);
      expect({ name: r.name, errors: result.errors }).toEqual({ name: r.name, errors: [] });
    }
  });

  it("writes pool objects that upstream's CRDs admit unchanged (strict variant and fact table)", () => {
    const objects = poolObjects();
    expect(objects).toHaveLength(4);
    expect(admissionProblems(objects, UPSTREAM_STRICT_CRDS)).toEqual([]);
    expect(admissionProblems(objects, FACT_TABLE_CRDS)).toEqual([]);
  });

  it('exports the pools and their selectors as stack outputs', async () => {
    expect(await valueOf(program.controllerNamespace)).toBe('lab-a');
    expect(await valueOf(program.pools.x86.exporterSet)).toBe('x86-64-ci');
    expect(await valueOf(program.pools.rpi4.selector)).toEqual({
      matchLabels: { board: 'rpi4', arch: 'aarch64', virtual: 'true' },
    });
  });
});

describeWithUpstream("examples/pulumi-lab and upstream's own CRDs", () => {
  it('writes pool objects they admit unchanged', () => {
    expect(admissionProblems(poolObjects(), referenceCrds())).toEqual([]);
  });
});
