import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { staleBuild } from '../../src/lab/build';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function tree(files: Record<string, number>): string {
  root = mkdtempSync(join(tmpdir(), 'lab-build-'));
  for (const [path, mtimeSeconds] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    utimesSync(file, mtimeSeconds, mtimeSeconds);
  }
  return root;
}

describe('staleBuild', () => {
  it('is undefined when every source has a newer output', () => {
    const dir = tree({
      'lib/index.ts': 100,
      'lib/core/a.ts': 100,
      'lib/core/types.d.ts': 500, // declarations are not compiled
      'out/lib/index.js': 200,
      'out/lib/core/a.js': 200,
      'controller/src/main.ts': 100,
      'controller/out/main.js': 200,
    });
    expect(staleBuild(dir)).toBeUndefined();
  });

  it('names a missing output (a fresh clone)', () => {
    const dir = tree({ 'lib/index.ts': 100, 'controller/src/main.ts': 100, 'controller/out/main.js': 200 });
    expect(staleBuild(dir)).toBe('out/lib/index.js is missing');
  });

  it('names a source edited after its output', () => {
    const dir = tree({
      'lib/index.ts': 100,
      'out/lib/index.js': 200,
      'test-cluster/src/store.ts': 300,
      'test-cluster/out/store.js': 200,
    });
    expect(staleBuild(dir)).toBe('test-cluster/src/store.ts changed since the last build');
  });
});
