import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateImports } from '../../scripts/generate-imports';

const root = process.cwd();

describe('imports/', () => {
  it('is exactly what `npm run import` generates from lib/crds, and regenerating is idempotent', () => {
    const first = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-a-'));
    const second = fs.mkdtempSync(path.join(os.tmpdir(), 'imports-b-'));
    try {
      const files = generateImports(root, first).map((f) => path.basename(f));
      generateImports(root, second);
      expect(files.sort()).toEqual(fs.readdirSync(path.join(root, 'imports')).sort());
      for (const file of files) {
        const generated = fs.readFileSync(path.join(first, file), 'utf8');
        expect(fs.readFileSync(path.join(second, file), 'utf8')).toBe(generated);
        // A failure here means lib/crds changed: run `npm run import` and commit imports/.
        expect(fs.readFileSync(path.join(root, 'imports', file), 'utf8')).toBe(generated);
      }
    } finally {
      fs.rmSync(first, { recursive: true, force: true });
      fs.rmSync(second, { recursive: true, force: true });
    }
  });
});
