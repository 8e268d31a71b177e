import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { staleReason } from '../../bench/support/build';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function tree(files: Record<string, number>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-build-'));
  roots.push(root);
  for (const [file, seconds] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, '');
    utimesSync(full, seconds, seconds);
  }
  return root;
}

describe('bench build check', () => {
  it('builds when an output is missing', () => {
    expect(staleReason(tree({ 'lib/index.ts': 100 }))).toBe('out/lib/index.js is missing');
  });

  it('builds when a source is newer than what was built from it', () => {
    const root = tree({
      'lib/index.ts': 100,
      'controller/src/main.ts': 300,
      'test-cluster/src/index.ts': 100,
      'out/lib/index.js': 200,
      'test-cluster/out/index.js': 200,
      'controller/out/main.js': 200,
    });
    expect(staleReason(root)).toBe('controller/out/main.js is older than controller/src/');
  });

  it('does not build when every output is newer than its sources', () => {
    const root = tree({
      'lib/index.ts': 100,
      'imports/k.ts': 100,
      'controller/src/main.ts': 100,
      'test-cluster/src/index.ts': 100,
      'out/lib/index.js': 200,
      'test-cluster/out/index.js': 200,
      'controller/out/main.js': 200,
    });
    expect(staleReason(root)).toBeUndefined();
  });
});
