// The boundaries the README's Architecture section promises, checked on every source's imports as the
// compiler parses them; each rule is also shown to fail on a planted violation.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  boundaryViolations,
  escapingImports,
  importTarget,
  packageOf,
  undeclaredImports,
  type Boundary,
} from './support/boundaries';
import { parseImports, readModules, type SourceModule } from './support/module-imports';

const root = process.cwd();
const FRONT_END_PACKAGES = ['cdk8s', 'cdk8s-plus-28', 'constructs', '@pulumi'];
const NEUTRAL = ['lib/api', 'lib/core', 'lib/crds', 'lib/provisioners', 'lib/manifests'];
const TOOLING_PACKAGES = ['virtual-exporters-test-cluster', 'virtual-exporters-tools'];
const IO_MODULES = ['node:fs', 'node:http', 'node:https', 'node:http2', 'node:net', 'node:child_process'];

/** Each workspace package: its manifest and the folders its published code comes from. */
const PACKAGES = [
  { manifest: 'package.json', sources: ['lib', 'imports'] },
  { manifest: 'test-cluster/package.json', sources: ['test-cluster/src'] },
  { manifest: 'controller/package.json', sources: ['controller/src'] },
  { manifest: 'tools/package.json', sources: ['tools/src'] },
  { manifest: 'jsii/package.json', sources: ['jsii/src'] },
] as const;

const BOUNDARIES: readonly Boundary[] = [
  ...NEUTRAL.map((dir) => ({
    name: `${dir} uses no front end (cdk8s, constructs, Pulumi)`,
    sources: [dir],
    forbidden: [...FRONT_END_PACKAGES, 'lib/cdk8s', 'lib/pulumi', 'imports'],
  })),
  {
    name: 'lib/core uses no provisioner, manifest builder or CRD (not even their types)',
    sources: ['lib/core'],
    forbidden: ['lib/provisioners', 'lib/manifests', 'lib/crds'],
  },
  {
    name: 'cdk8s users load no Pulumi',
    sources: ['lib/cdk8s'],
    forbidden: ['@pulumi', 'lib/pulumi'],
  },
  {
    name: 'Pulumi users load no cdk8s',
    sources: ['lib/pulumi'],
    forbidden: ['cdk8s', 'cdk8s-plus-28', 'constructs', 'lib/cdk8s', 'imports'],
  },
  {
    name: 'the library knows nothing of the controller, the test cluster or the tools',
    sources: ['lib', 'imports'],
    forbidden: ['virtual-exporters-controller', ...TOOLING_PACKAGES, 'controller', 'test-cluster', 'tools'],
  },
  {
    name: 'the controller imports neither the test cluster nor the tools, nor a front end of the library',
    sources: ['controller/src'],
    forbidden: [
      ...TOOLING_PACKAGES,
      'virtual-exporters/cdk8s',
      'virtual-exporters/pulumi',
      ...FRONT_END_PACKAGES,
    ],
  },
  {
    name: 'the planner does no I/O: no client, reconciler, operations or I/O module',
    sources: ['controller/src/planner'],
    forbidden: [
      'controller/src/kube',
      'controller/src/reconciler',
      'controller/src/operations',
      'controller/src/manager',
      'controller/src/main',
      ...IO_MODULES,
    ],
  },
  {
    name: 'the planner uses client-node for types only',
    sources: ['controller/src/planner'],
    forbidden: ['@kubernetes/client-node'],
    typesAllowed: true,
  },
  {
    name: 'the test cluster imports neither the controller nor the tools',
    sources: ['test-cluster/src'],
    forbidden: ['virtual-exporters-controller', 'virtual-exporters-tools', 'controller', 'tools'],
  },
];

const modules = readModules(
  root,
  PACKAGES.flatMap((p) => p.sources),
);

interface Manifest {
  readonly name: string;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}
const manifestOf = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Manifest;
const declaredBy = (manifest: Manifest) => [
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
];
const inside = (folders: readonly string[]) => (m: SourceModule) =>
  folders.some((folder) => m.file.startsWith(`${folder}/`));

describe('module boundaries (README, Architecture)', () => {
  it.each(BOUNDARIES.map((b) => [b.name, b] as const))('%s', (_name, boundary) => {
    expect(boundaryViolations(modules, boundary)).toEqual([]);
  });

  it('keeps lib/api free of logic imports: it imports only itself', () => {
    expect(escapingImports(modules.filter(inside(['lib/api'])), ['lib/api'], true)).toEqual([]);
  });

  it.each(PACKAGES.map((p) => [p.manifest, p] as const))(
    '%s: its code reaches other packages by name only, and declares every package it runs',
    (manifest, { sources }) => {
      const own = modules.filter(inside(sources));
      expect(own.length).toBeGreaterThan(0);
      expect(escapingImports(own, sources)).toEqual([]);
      expect(undeclaredImports(own, declaredBy(manifestOf(manifest)))).toEqual([]);
    },
  );

  it('lists every package as a workspace of the root', () => {
    const workspaces = manifestOf('package.json').workspaces ?? [];
    const nested = PACKAGES.filter((p) => p.manifest !== 'package.json').map((p) => path.dirname(p.manifest));
    expect([...workspaces].sort()).toEqual([...nested].sort());
  });

  it('gives the controller only the dependencies the controller runs (admission’s ajv and CEL live in the test cluster)', () => {
    const runtime = new Set(
      modules
        .filter(inside(['controller/src']))
        .flatMap((m) => m.imports.filter((i) => !i.typeOnly).map((i) => packageOf(i.specifier)))
        .filter((name) => name !== undefined),
    );
    expect(Object.keys(manifestOf('controller/package.json').dependencies ?? {}).sort()).toEqual(
      [...runtime].sort(),
    );
    expect(declaredBy(manifestOf('test-cluster/package.json'))).toEqual(
      expect.arrayContaining(['ajv', 'ajv-formats', '@marcbachmann/cel-js']),
    );
  });

  it('finds the imports it checks', () => {
    const specifiers = (file: string) =>
      modules.find((m) => m.file === file)?.imports.map((i) => i.specifier);
    expect(specifiers('lib/cdk8s/exporter-set.ts')).toContain('cdk8s');
    expect(specifiers('lib/pulumi/exporter-set.ts')).toContain('@pulumi/pulumi');
    expect(specifiers('tools/src/lab/lab.ts')).toContain('virtual-exporters-test-cluster');
  });
});

describe('module boundaries › the checker', () => {
  it('reads every import form, and which of them leave nothing at run time', () => {
    const text = [
      "import type { Provisioner } from '../provisioners/provisioner';",
      "import { type A, type B } from './types';",
      "import { type C, d } from './mixed';",
      'import {',
      '  e,',
      '  f,',
      "} from './multi-line';",
      "import './side-effect';",
      "export * from './everything';",
      "export type { G } from './exported-types';",
      "import h = require('./import-equals');",
      "const i = require('./required');",
      "const j = import('./dynamic');",
      "type K = typeof import('./type-query');",
    ].join('\n');
    expect(parseImports(text).map((i) => [i.specifier, i.typeOnly, i.line])).toEqual([
      ['../provisioners/provisioner', true, 1],
      ['./types', true, 2],
      ['./mixed', false, 3],
      ['./multi-line', false, 7],
      ['./side-effect', false, 8],
      ['./everything', false, 9],
      ['./exported-types', true, 10],
      ['./import-equals', false, 11],
      ['./required', false, 12],
      ['./dynamic', false, 13],
      ['./type-query', true, 14],
    ]);
  });

  it('resolves relative imports to repository paths and bare ones to their package', () => {
    expect(importTarget('lib/core/validate-references.ts', '../provisioners/provisioner')).toBe(
      'lib/provisioners/provisioner',
    );
    expect(importTarget('controller/src/planner/plan.ts', 'fs')).toBe('node:fs');
    expect(packageOf('@kubernetes/client-node')).toBe('@kubernetes/client-node');
    expect(packageOf('virtual-exporters/internal')).toBe('virtual-exporters');
    expect([packageOf('node:fs'), packageOf('path'), packageOf('../x')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('fails on the provisioner type lib/core/validate-references.ts used to import', () => {
    const planted = {
      file: 'lib/core/validate-references.ts',
      imports: parseImports("import type { Provisioner } from '../provisioners/provisioner';"),
    };
    const rule = BOUNDARIES.find(
      (b) => b.sources.includes('lib/core') && b.forbidden.includes('lib/provisioners'),
    )!;
    expect(boundaryViolations([planted], rule)).toEqual([
      'lib/core/validate-references.ts:1 imports ../provisioners/provisioner (types)',
    ]);
  });

  /** An import of `target` from a file in `folder`: relative for a repository folder, by name for a package. */
  function plantedImport(folder: string, target: string): string {
    if (!fs.existsSync(path.join(root, target)) && !fs.existsSync(path.join(root, `${target}.ts`)))
      return target;
    const relative = path.posix.relative(folder, target);
    return relative.startsWith('.') ? relative : `./${relative}`;
  }

  it.each(BOUNDARIES.map((b) => [b.name, b] as const))(
    'fails on a planted violation: %s',
    (_name, boundary) => {
      const folder = boundary.sources[0];
      const file = `${folder}/planted.ts`;
      const text = boundary.forbidden
        .map((target) => `import { x } from '${plantedImport(folder, target)}';`)
        .join('\n');
      const violations = boundaryViolations([{ file, imports: parseImports(text) }], boundary);
      expect(violations).toHaveLength(boundary.forbidden.length);
      const typesOnly = text.replaceAll('import {', 'import type {');
      const typeViolations = boundaryViolations([{ file, imports: parseImports(typesOnly) }], boundary);
      expect(typeViolations).toHaveLength(boundary.typesAllowed ? 0 : boundary.forbidden.length);
    },
  );

  it('fails on a package reached by path, and on a runtime import its package does not declare', () => {
    const planted = {
      file: 'controller/src/reconciler/planted.ts',
      imports: parseImports(
        [
          "import { startTestCluster } from '../../../test-cluster/src';",
          "import { Ajv } from 'ajv';",
          "import type { Logger } from 'pino-types-only';",
          "import { readFileSync } from 'node:fs';",
          "import { plan } from '../planner';",
        ].join('\n'),
      ),
    };
    expect(escapingImports([planted], ['controller/src'])).toEqual([
      'controller/src/reconciler/planted.ts:1 imports ../../../test-cluster/src',
    ]);
    expect(undeclaredImports([planted], declaredBy(manifestOf('controller/package.json')))).toEqual([
      'controller/src/reconciler/planted.ts:2 imports ajv',
    ]);
    expect(escapingImports([planted], ['controller/src/reconciler'], true)).toHaveLength(5);
  });
});
