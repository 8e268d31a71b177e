/**
 * Everything `npm run synth` writes (the examples/gitops app) and everything the README's cdk8s
 * example produces is admitted, unchanged, by upstream's CRDs: the upstream-strict variants, the CRDs
 * of the fact table, and upstream's own CRDs where they are at hand. (The Pulumi README program and
 * examples/pulumi-lab are checked the same way in test/pulumi/readme.test.ts and example.test.ts.)
 */
import { describe, expect, it } from '@jest/globals';
import { Testing } from 'cdk8s';
import * as path from 'node:path';
import { buildGitopsApp } from '../../examples/gitops/app';
import { synthReadmeCdk8sExample } from '../support/readme-examples';
import { testApp } from '../support/synth';
import {
  FACT_TABLE_CRDS,
  UPSTREAM_STRICT_CRDS,
  admissionProblems,
  referenceCrds,
  upstreamKindObjects,
} from '../support/upstream-admission';
import { describeWithUpstream } from '../support/upstream-reference';

const gitops = buildGitopsApp(testApp()).charts.flatMap((chart) => Testing.synth(chart));
const readme = await synthReadmeCdk8sExample(
  path.resolve(process.cwd(), 'test/examples/.readme-example-upstream.ts'),
);
const outputs: [string, any[]][] = [
  ['examples/gitops (what npm run synth writes)', gitops],
  ['the README example', readme],
];

describe("what we synthesize is admitted by upstream's CRDs", () => {
  it('checks every ExporterSet and VirtualTargetClass the outputs hold', () => {
    const kinds = (objects: readonly any[]) => upstreamKindObjects(objects).map((o) => o.kind as string);
    expect(kinds(gitops).filter((k) => k === 'VirtualTargetClass')).toHaveLength(5);
    expect(kinds(gitops).filter((k) => k === 'ExporterSet')).toHaveLength(4);
    expect(kinds(readme).sort()).toEqual(['ExporterSet', 'VirtualTargetClass']);
  });

  it.each(outputs)('%s: by the upstream-strict CRD variants', (_name, objects) => {
    expect(admissionProblems(objects, UPSTREAM_STRICT_CRDS)).toEqual([]);
  });

  it.each(outputs)("%s: by the CRDs of upstream's fact table", (_name, objects) => {
    expect(admissionProblems(objects, FACT_TABLE_CRDS)).toEqual([]);
  });

  it('names every driver it writes (upstream requires the name)', () => {
    const drivers = upstreamKindObjects([...gitops, ...readme])
      .filter((o) => o.kind === 'ExporterSet')
      .flatMap((o: any) => o.spec.template.spec.drivers as { name?: string }[]);
    expect(drivers.length).toBeGreaterThan(5);
    expect(drivers.filter((d) => typeof d.name !== 'string' || d.name === '')).toEqual([]);
  });

  it('would be refused if a driver lost its name', () => {
    const set = structuredClone(
      gitops.find((o) => o.kind === 'ExporterSet' && o.metadata.name === 'rpi4-virtual'),
    );
    delete set.spec.template.spec.drivers[1].name;
    expect(admissionProblems([set], UPSTREAM_STRICT_CRDS)).toContain(
      'ExporterSet jumpstarter/rpi4-virtual: spec.template.spec.drivers[1].name: Required value',
    );
  });
});

describeWithUpstream("what we synthesize is admitted by upstream's own CRDs", () => {
  it.each(outputs)('%s', (_name, objects) => {
    expect(admissionProblems(objects, referenceCrds())).toEqual([]);
  });
});
