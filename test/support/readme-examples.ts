/**
 * The README's code examples, run as written: each is cut out of README.md, written to a scratch
 * file beside the test (so its package imports resolve as jest maps them, to the sources) and
 * imported. Several test files run them; each passes its own scratch path.
 */
import { Testing, type App } from 'cdk8s';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testApp } from './synth';

const README = fs.readFileSync(path.resolve(process.cwd(), 'README.md'), 'utf8');

/** The first ```ts block of the README section under `heading` (a `## ` line), or '' when missing. */
export function readmeExample(heading: string): string {
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`## ${escaped}\\n[\\s\\S]*?\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(README)?.[1] ?? '';
}

/** The cdk8s example of the README's "Example" section. */
export const README_CDK8S_EXAMPLE = readmeExample('Example');
/** The Pulumi program of the README's Pulumi section. */
export const README_PULUMI_EXAMPLE = readmeExample('Pulumi (`virtual-exporters/pulumi`)');

/** Imports `source` from the scratch file `scratch` (a .ts path), removing the file afterwards. */
export async function importScratch<T>(scratch: string, source: string): Promise<T> {
  fs.writeFileSync(scratch, source);
  try {
    return (await import(scratch)) as T;
  } finally {
    fs.rmSync(scratch, { force: true });
  }
}

/**
 * Runs the README's cdk8s example with its app kept in memory instead of written to dist/, and
 * returns every object its charts synthesize (construct validations included).
 */
export async function synthReadmeCdk8sExample(scratch: string): Promise<any[]> {
  const source = README_CDK8S_EXAMPLE.replace(
    'const app = new App();',
    'export const app = new App({ outdir: OUTDIR });',
  ).replace('app.synth();', '');
  if (!source.includes('export const app'))
    throw new Error('the README example no longer creates `const app = new App();`');
  const { app } = await importScratch<{ app: App }>(
    scratch,
    `const OUTDIR = ${JSON.stringify(testApp().outdir)};\n${source}`,
  );
  return app.charts.flatMap((c) => Testing.synth(c));
}
