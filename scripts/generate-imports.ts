/**
 * Regenerates imports/ with `cdk8s import` from the CRDs in lib/crds — the only way imports/ may
 * change. Shared by `npm run import` and the drift test.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import {
  exporterOperationCrd,
  exporterSetCrd,
  exporterCrd,
  leaseCrd,
  virtualTargetClassCrd,
} from '../lib/crds';

/** One import per API group: `imports/<group>.ts`. */
const GROUPS: { file: string; crds: readonly object[] }[] = [
  {
    file: 'virtualtarget.jumpstarter.dev',
    crds: [virtualTargetClassCrd, exporterSetCrd, exporterOperationCrd],
  },
  { file: 'jumpstarter.dev', crds: [exporterCrd, leaseCrd] },
];

export function generateImports(repoRoot: string, outDir: string): string[] {
  const cdk8s = path.join(repoRoot, 'node_modules', '.bin', 'cdk8s');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'virtual-exporters-crds-'));
  const written: string[] = [];
  try {
    fs.mkdirSync(outDir, { recursive: true });
    for (const group of GROUPS) {
      const file = path.join(work, `${group.file}.yaml`);
      fs.writeFileSync(file, group.crds.map((crd) => stringify(crd)).join('---\n'));
      execFileSync(cdk8s, ['import', file, '--output', outDir, '--language', 'typescript', '--no-save'], {
        cwd: work,
        env: { ...process.env, CDK8S_CHECK_UPGRADE: 'false' },
        stdio: 'pipe',
      });
      written.push(path.join(outDir, `${group.file}.ts`));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return written;
}
