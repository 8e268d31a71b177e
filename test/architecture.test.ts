import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = process.cwd();

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
}

describe('module boundaries (ARCHITECTURE.md)', () => {
  const neutral = ['lib/api', 'lib/core', 'lib/crds', 'lib/provisioners', 'lib/manifests'];

  it.each(neutral)('%s uses no front end (cdk8s, constructs, Pulumi)', (dir) => {
    const offenders = sources(dir).flatMap((file) =>
      importsOf(file)
        .filter(
          (spec) => /^(cdk8s|cdk8s-plus-\d+|constructs|@pulumi\/)/.test(spec) || spec.includes('/cdk8s'),
        )
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps lib/api free of logic imports and lib/core free of provisioners and manifests', () => {
    const offenders = [
      ...sources('lib/api').flatMap((f) =>
        importsOf(f)
          .filter((s) => !s.startsWith('./'))
          .map((s) => `${f}: ${s}`),
      ),
      ...sources('lib/core').flatMap((f) =>
        importsOf(f)
          .filter((s) => /\/(manifests|cdk8s|crds)\b/.test(s))
          .map((s) => `${f}: ${s}`),
      ),
    ];
    expect(offenders).toEqual([]);
  });

  it('keeps the front ends apart: cdk8s users load no Pulumi, Pulumi users no cdk8s', () => {
    const offenders = [
      ...sources('lib/cdk8s').flatMap((file) =>
        importsOf(file)
          .filter((spec) => spec.startsWith('@pulumi/') || spec.includes('/pulumi'))
          .map((spec) => `${file} imports ${spec}`),
      ),
      ...sources('lib/pulumi').flatMap((file) =>
        importsOf(file)
          .filter(
            (spec) =>
              /^(cdk8s|cdk8s-plus-\d+|constructs)$/.test(spec) ||
              spec.includes('/cdk8s') ||
              spec.includes('imports/'),
          )
          .map((spec) => `${file} imports ${spec}`),
      ),
    ];
    expect(offenders).toEqual([]);
  });

  it('finds the imports it checks', () => {
    expect(importsOf('lib/cdk8s/exporter-set.ts')).toContain('cdk8s');
    expect(importsOf('lib/pulumi/exporter-set.ts')).toContain('@pulumi/pulumi');
  });
});
