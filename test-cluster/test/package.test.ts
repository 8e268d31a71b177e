// The test cluster as a package other operators depend on (like envtest): its entry point is the build
// of src/index.ts, it can be installed, and it depends on nothing of the controller or the tools.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';

const dir = path.join(process.cwd(), 'test-cluster');
const readJson = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly main: string;
  readonly types: string;
  readonly files: readonly string[];
  readonly exports: Record<string, { readonly types: string; readonly default: string }>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

const manifest = readJson<Manifest>('package.json');
const { compilerOptions } = readJson<{ compilerOptions: { rootDir: string; outDir: string } }>(
  'tsconfig.json',
);
/** Where tsc writes the compiled `src/<file>.ts`. */
const built = (file: string, extension: '.js' | '.d.ts') =>
  `./${path.posix.join(compilerOptions.outDir, file.replace(/\.ts$/, extension))}`;

describe('test cluster › package', () => {
  it('is virtual-exporters-test-cluster, installable (not private)', () => {
    expect(manifest.name).toBe('virtual-exporters-test-cluster');
    expect(manifest.private).toBeUndefined();
  });

  it('exports the build of src/index.ts, and ships that build', () => {
    expect(compilerOptions.rootDir).toBe('src');
    expect(fs.existsSync(path.join(dir, 'src', 'index.ts'))).toBe(true);
    expect(manifest.exports['.']).toEqual({
      types: built('index.ts', '.d.ts'),
      default: built('index.ts', '.js'),
    });
    expect([`./${manifest.main}`, `./${manifest.types}`]).toEqual([
      built('index.ts', '.js'),
      built('index.ts', '.d.ts'),
    ]);
    expect(manifest.files).toContain(compilerOptions.outDir);
  });

  it('depends on the library by its exact version (it uses virtual-exporters/internal), not a file path', () => {
    const library = JSON.parse(fs.readFileSync(path.join(dir, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.dependencies['virtual-exporters']).toBe(library.version);
    expect(Object.values(manifest.dependencies).filter((spec) => spec.startsWith('file:'))).toEqual([]);
  });

  it('depends on nothing of the controller or the tools', () => {
    const all = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(all.filter((name) => /controller|tools/.test(name))).toEqual([]);
  });
});
