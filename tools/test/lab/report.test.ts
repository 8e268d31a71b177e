import { describe, expect, it } from '@jest/globals';
import { buildGitopsApp } from '../../../examples/gitops/app';
import { labManifests } from '../../src/lab/manifests';
import { unservedPoolLine } from '../../src/lab/report';
import type { KubeObject } from 'virtual-exporters-test-cluster';

describe('unserved pools', () => {
  it('says of a pool whose provisioner this version does not run that it gets no instances', () => {
    expect(unservedPoolLine({ name: 'ec2-pool', provisioner: 'ec2.jumpstarter.dev' })).toBe(
      'pool ec2-pool: provisioner ec2.jumpstarter.dev is not run by this version; no instances will be created',
    );
  });

  it('says "the lab" for a provisioner this version has but the lab does not run', () => {
    expect(unservedPoolLine({ name: 'p', provisioner: 'qemu.jumpstarter.dev' })).toBe(
      'pool p: provisioner qemu.jumpstarter.dev is not run by the lab; no instances will be created',
    );
  });

  it('names the missing class when a pool has no provisioner at all', () => {
    expect(unservedPoolLine({ name: 'p', provisioner: '' })).toContain(
      'provisioner (none: its class is missing)',
    );
  });

  it('gives one line for each unserved pool of the GitOps example', () => {
    const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];
    const unserved = labManifests(objects, { speedUp: 1 }).pools.filter(
      (p) => p.provisioner !== 'qemu.jumpstarter.dev',
    );
    expect(unserved.map((pool) => unservedPoolLine(pool))).toEqual([
      'pool pixel7-emulator: provisioner android.jumpstarter.dev is not run by the lab; no instances will be created',
      'pool qcom-sa8295-hifi: provisioner qemu-baremetal.jumpstarter.dev is not run by the lab; no instances will be created',
    ]);
  });
});
