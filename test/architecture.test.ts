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
import { lineCount, longFiles, readSources } from './support/file-lengths';
import { importCycles } from './support/import-cycles';
import { layerViolations, type LayerRule } from './support/layers';
import { parseImports, readModules, sourceFiles, type SourceModule } from './support/module-imports';

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

/** The pure planners: snapshot in, actions out. */
const PLANNERS = [
  { name: 'the ExporterSet planner', dir: 'controller/src/planner' },
  { name: 'the ExporterOperation planner', dir: 'controller/src/exporter-operation/planner' },
] as const;

/** What a planner never imports: the client, the reconcilers, the process wiring, the entry points. */
const PLANNER_FORBIDDEN = [
  'controller/src/kube',
  'controller/src/reconciler',
  'controller/src/exporter-operation/reconciler',
  'controller/src/process',
  'controller/src/manager',
  'controller/src/main',
];

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
  ...PLANNERS.flatMap(({ name, dir }) => [
    {
      name: `${name} does no I/O: no client, reconciler, process wiring or I/O module`,
      sources: [dir],
      forbidden: [...PLANNER_FORBIDDEN, ...IO_MODULES],
    },
    {
      name: `${name} uses client-node for types only`,
      sources: [dir],
      forbidden: ['@kubernetes/client-node'],
      typesAllowed: true,
    },
  ]),
  {
    name: 'the test cluster imports neither the controller nor the tools',
    sources: ['test-cluster/src'],
    forbidden: ['virtual-exporters-controller', 'virtual-exporters-tools', 'controller', 'tools'],
  },
];

/** Folders in which no file imports itself back, directly or through others. */
const CYCLE_FREE = ['controller/src', 'lib', 'test-cluster/src', 'tools/src'];

/** Layer folders, earliest first; the root's own files are the last layer (ARCHITECTURE.md). */
const LAYERS: readonly LayerRule[] = [
  { root: 'controller/src/planner', layers: ['model', 'spec', 'demand', 'observe', 'decide', 'status'] },
];

/** Folders whose files stay short enough to read whole. */
const LINE_LIMITED = ['controller/src'];
const MAX_LINES = 300;

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

  it('has no import cycle in controller/src, lib, test-cluster/src or tools/src (type-only imports count)', () => {
    expect(importCycles(modules.filter(inside(CYCLE_FREE)))).toEqual([]);
  });

  it.each(LAYERS.map((rule) => [rule.root, rule] as const))(
    '%s: every file is in a layer, and imports only its own layer or earlier ones',
    (_root, rule) => {
      expect(layerViolations(modules, rule)).toEqual([]);
    },
  );

  it(`keeps every file in ${LINE_LIMITED.join(', ')} at most ${MAX_LINES} lines`, () => {
    const files = LINE_LIMITED.flatMap((dir) => sourceFiles(root, dir));
    expect(longFiles(readSources(root, files), MAX_LINES)).toEqual([]);
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

  it('fails on a provisioner type imported into lib/core', () => {
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

describe('module boundaries › cycles, layers and file lengths', () => {
  const planted = (files: Record<string, string>): SourceModule[] =>
    Object.entries(files).map(([file, text]) => ({ file, imports: parseImports(text) }));

  it('fails on a planted cycle, type-only imports and folder indexes included, naming its files in order', () => {
    const modules = planted({
      'tools/src/x/a.ts': "import type { B } from './b';",
      'tools/src/x/b.ts': "import { a } from './a.js';",
      'tools/src/y/c.ts': "import { d } from './d';\nimport { e } from 'e-package';",
      'tools/src/y/d/index.ts': "export * from './e';",
      'tools/src/y/d/e.ts': "import { c } from '../c';",
      'tools/src/z/self.ts': "export type { S } from './self';",
    });
    expect(importCycles(modules)).toEqual([
      'tools/src/x/a.ts → tools/src/x/b.ts → tools/src/x/a.ts',
      'a circle of 3 files: tools/src/y/c.ts → tools/src/y/d/index.ts → tools/src/y/d/e.ts → tools/src/y/c.ts',
      'tools/src/z/self.ts → tools/src/z/self.ts',
    ]);
  });

  it('reads a large circle as the short loops it is made of, and passes a graph without one', () => {
    const circle = planted({
      'lib/p/hub.ts': "import { a } from './a';\nimport { b } from './b';",
      'lib/p/a.ts': "import { hub } from './hub';",
      'lib/p/b.ts': "import { hub } from './hub';",
    });
    expect(importCycles(circle)).toEqual([
      'a circle of 3 files: lib/p/a.ts → lib/p/hub.ts → lib/p/a.ts',
      'a circle of 3 files: lib/p/b.ts → lib/p/hub.ts → lib/p/b.ts',
    ]);
    const acyclic = planted({
      'lib/p/top.ts': "import { a } from './a';\nimport { b } from './b';",
      'lib/p/a.ts': "import { b } from './b';",
      'lib/p/b.ts': "import { readFileSync } from 'node:fs';",
    });
    expect(importCycles(acyclic)).toEqual([]);
  });

  it('fails on a planted import of a later layer, on a file outside the layers, and on a layer with no file', () => {
    const rule = LAYERS.find((r) => r.root === 'controller/src/planner')!;
    const modules = planted({
      'controller/src/planner/model/planted.ts': [
        "import type { Scale } from '../decide/scale/scale-types';",
        "import { plan } from '../plan';",
        "import { status } from '../status';",
        "import { counts } from '..';",
        "import { time } from './time';",
        "import { isPlainObject } from 'virtual-exporters/internal';",
        "import { kube } from '../../kube/client';",
      ].join('\n'),
      'controller/src/planner/status/fine.ts': [
        "import type { World } from '../observe/world';",
        "import { snapshot } from '../model';",
        "import { decide } from '../decide/scale/floor';",
      ].join('\n'),
      'controller/src/planner/spec/spec-values.ts': "import type { Snapshot } from '../model/snapshot';",
      'controller/src/planner/demand/demand.ts': '',
      'controller/src/planner/observe/world.ts': "import { demand } from '../demand/demand';",
      'controller/src/planner/decide/scale/floor.ts': "import type { World } from '../../observe/world';",
      'controller/src/planner/plan.ts': "import { decide } from './decide/decide';",
      'controller/src/planner/helpers/stray.ts': "import { time } from '../model/time';",
      'controller/src/planner/stray/deeper/too.ts': '',
    });
    expect(layerViolations(modules, rule)).toEqual([
      'controller/src/planner/model/planted.ts:1 imports ../decide/scale/scale-types (types): decide comes after model',
      'controller/src/planner/model/planted.ts:2 imports ../plan: the top of controller/src/planner comes after model',
      'controller/src/planner/model/planted.ts:3 imports ../status: status comes after model',
      'controller/src/planner/model/planted.ts:4 imports ..: the top of controller/src/planner comes after model',
      'controller/src/planner/helpers/stray.ts is in no layer of controller/src/planner (model, spec, demand, observe, decide, status)',
      'controller/src/planner/stray/deeper/too.ts is in no layer of controller/src/planner (model, spec, demand, observe, decide, status)',
    ]);
    const flat = planted({ 'controller/src/planner/plan.ts': "import { snapshot } from './snapshot';" });
    expect(layerViolations(flat, rule)).toEqual(
      rule.layers.map(
        (layer) => `controller/src/planner/${layer} holds no file: the tree does not show this stage`,
      ),
    );
  });

  it('applies the same layer rule to any folder given its layer names', () => {
    const rule: LayerRule = { root: 'tools/src/lab', layers: ['input', 'run'] };
    const modules = planted({
      'tools/src/lab/input/options.ts': "import { runLab } from '../run/lab';",
      'tools/src/lab/run/lab.ts': "import type { Options } from '../input/options';",
      'tools/src/lab/cli.ts': "import { runLab } from './run/lab';",
    });
    expect(layerViolations(modules, rule)).toEqual([
      'tools/src/lab/input/options.ts:1 imports ../run/lab: run comes after input',
    ]);
  });

  it(`fails on a planted file over ${MAX_LINES} lines, and counts a final newline as no extra line`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `const x${i} = ${i};`).join('\n') + '\n';
    expect(lineCount(lines(MAX_LINES))).toBe(MAX_LINES);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
    expect(
      longFiles(
        [
          { file: 'controller/src/kube/long.ts', text: lines(MAX_LINES + 1) },
          { file: 'controller/src/kube/longer.ts', text: lines(MAX_LINES + 40) },
          { file: 'controller/src/kube/fits.ts', text: lines(MAX_LINES) },
        ],
        MAX_LINES,
      ),
    ).toEqual([
      `controller/src/kube/longer.ts: ${MAX_LINES + 40} lines (at most ${MAX_LINES})`,
      `controller/src/kube/long.ts: ${MAX_LINES + 1} lines (at most ${MAX_LINES})`,
    ]);
  });
});
