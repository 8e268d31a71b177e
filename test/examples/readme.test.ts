import { afterAll, describe, expect, it } from '@jest/globals';
import { Testing } from 'cdk8s';
import * as fs from 'node:fs';
import * as path from 'node:path';

const readme = fs.readFileSync(path.resolve(process.cwd(), 'README.md'), 'utf8');
const example = /## Example\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const scratch = path.resolve(process.cwd(), 'test/examples/.readme-example.ts');

describe('README example', () => {
  afterAll(() => fs.rmSync(scratch, { force: true }));

  it('is about 20 lines and synthesizes a controller and a pool', async () => {
    expect(example.split('\n').length).toBeLessThanOrEqual(25);
    // Run the snippet as written, with the package import pointed at the sources and the app kept
    // in memory instead of written to dist/.
    const source = example
      .replace("from 'virtual-exporters/cdk8s'", "from '../../lib/cdk8s'")
      .replace('const app = new App();', 'export const app = new App({ outdir: OUTDIR });')
      .replace('app.synth();', '');
    expect(source).toContain('export const app');
    fs.writeFileSync(scratch, `const OUTDIR = ${JSON.stringify(Testing.app().outdir)};\n${source}`);
    const { app } = (await import(scratch)) as { app: import('cdk8s').App };
    const objects = app.charts.flatMap((c) => Testing.synth(c));
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'Deployment/exporter-set-controller-qemu',
        'VirtualTargetClass/x86-64-ci',
        'ExporterSet/x86-64-ci',
      ]),
    );
  });
});
