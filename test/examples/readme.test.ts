import { describe, expect, it } from '@jest/globals';
import * as path from 'node:path';
import { README_CDK8S_EXAMPLE, synthReadmeCdk8sExample } from '../support/readme-examples';

describe('README example', () => {
  it('is about 20 lines and synthesizes a controller and a pool', async () => {
    expect(README_CDK8S_EXAMPLE.split('\n').length).toBeLessThanOrEqual(25);
    expect(README_CDK8S_EXAMPLE).toContain("from 'virtual-exporters/cdk8s'");
    // Run as written (jest maps 'virtual-exporters/cdk8s' to the sources), the app kept in memory.
    const objects = await synthReadmeCdk8sExample(
      path.resolve(process.cwd(), 'test/examples/.readme-example.ts'),
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'Deployment/exporter-set-controller-qemu',
        'VirtualTargetClass/x86-64-ci',
        'ExporterSet/x86-64-ci',
      ]),
    );
  });
});
