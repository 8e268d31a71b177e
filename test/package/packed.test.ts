/**
 * The package as users consume it: `npm pack`ed, then installed into a fresh cdk8s app and a fresh
 * Pulumi program, each with the tsconfig its generator writes, type-checked with this repository's
 * TypeScript and synthesized. Also what the tarball holds and what its files may say.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import {
  buildAndPack,
  readmeOutput,
  readmeSnippet,
  run,
  runOk,
  scratchProject,
  TSC,
  type PackedPackage,
  type RunResult,
} from '../support/packed-package';

// Compiles against cdk8s's and Pulumi's full declarations take a while on a busy 2-core machine.
jest.setTimeout(240_000);

const root = process.cwd();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'virtual-exporters-packed-'));
const cdk8sApp = path.join(work, 'cdk8s-app');
const pulumiProgram = path.join(work, 'pulumi-program');
const negative = path.join(work, 'negative');
const esm = path.join(work, 'esm');

/** What `cdk8s init typescript-app` writes, taken from the template of the cdk8s-cli in the lockfile. */
const cdk8sTsconfig = JSON.parse(
  fs.readFileSync(path.join(root, 'node_modules/cdk8s-cli/templates/typescript-app/tsconfig.json'), 'utf8'),
) as { compilerOptions: Record<string, unknown> };

/** What `pulumi new typescript` writes (pulumi/templates, typescript/tsconfig.json). */
const pulumiTsconfig = {
  compilerOptions: {
    strict: true,
    outDir: 'bin',
    target: 'es2020',
    module: 'commonjs',
    moduleResolution: 'node',
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ['index.ts'],
};

/**
 * Runs the compiled Pulumi program as the engine would, with `pulumi.runtime.setMocks` standing in for
 * the engine, and prints what it registered once nothing is left to do.
 */
const RUN_WITH_MOCKS = `const pulumi = require('@pulumi/pulumi');
const resources = [];
let selector;
process.once('beforeExit', () => console.log(JSON.stringify({ resources, selector })));
Promise.resolve(
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        resources.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: args.custom ? args.name + '-id' : undefined, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    'consumer',
    'dev',
    false,
  ),
).then(() => {
  const program = require('./bin/index.js');
  program.selector.apply((value) => (selector = value));
});
`;

/** Loads every entry point from an ES module, as a `"type": "module"` project does. */
const ESM_CHECK = `import { GROUP, validateExporterSet } from 'virtual-exporters';
import { QemuPool as Cdk8sPool } from 'virtual-exporters/cdk8s';
import { QemuPool as PulumiPool } from 'virtual-exporters/pulumi';
console.log(JSON.stringify([GROUP, typeof validateExporterSet, typeof Cdk8sPool, typeof PulumiPool]));
`;

/**
 * Renders an off-cluster instance with the built CommonJS code, as the controller runs it: a local named
 * \`exports\` once shadowed the module's own there, while the ESM sources under jest worked.
 */
const CJS_RENDER = `const { renderRemoteFiles } = require('virtual-exporters/internal');
const rendered = renderRemoteFiles({
  exporterSet: {
    metadata: { name: 'bench', namespace: 'lab' },
    spec: { template: { spec: { drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }] } } },
  },
  exporter: { metadata: { name: 'bench-0', namespace: 'lab' }, status: { endpoint: 'grpc.example.com:443' } },
  virtualTargetClass: { metadata: { name: 'ssh', namespace: 'lab' }, spec: {} },
  parameters: { hosts: [{ name: 'bench-01.example.com' }] },
  token: 'token',
});
const config = rendered.files.find((f) => f.path.endsWith('.yaml'));
console.log(JSON.stringify({ files: rendered.files.map((f) => f.path), power: /QemuPower/.test(config.content) }));
`;

/** Type errors the package must produce: internals are not exported, props are typed. */
const NEGATIVE_SOURCES: Record<string, string> = {
  'internal-names.ts': `import { INT32_MAX, IssueCollector } from 'virtual-exporters';
console.log(INT32_MAX, IssueCollector);
`,
  'wrong-prop.ts': `import { App, Chart } from 'cdk8s';
import { QemuPool } from 'virtual-exporters/cdk8s';
new QemuPool(new Chart(new App(), 'lab'), 'Pool', { arch: 'sparc', labels: { board: 'x' } });
`,
};

let packed: PackedPackage;
let cdk8sCompile: Promise<RunResult>;
let pulumiCompile: Promise<RunResult>;
let negativeCompile: Promise<RunResult>;

function writeJson(file: string, value: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

beforeAll(async () => {
  packed = await buildAndPack(work);
  await Promise.all([
    scratchProject(cdk8sApp, packed.tarball, [
      'cdk8s',
      'cdk8s-plus-28',
      'constructs',
      'yaml',
      'cron-parser',
      '@types/node',
    ]),
    scratchProject(pulumiProgram, packed.tarball, [
      '@pulumi/pulumi',
      '@pulumi/kubernetes',
      'yaml',
      'cron-parser',
      '@types/node',
    ]),
    scratchProject(esm, packed.tarball, [
      'cdk8s',
      'cdk8s-plus-28',
      'constructs',
      '@pulumi/pulumi',
      '@pulumi/kubernetes',
      'yaml',
      'cron-parser',
    ]),
  ]);

  writeJson(path.join(cdk8sApp, 'tsconfig.json'), cdk8sTsconfig);
  writeJson(path.join(cdk8sApp, 'package.json'), { name: 'lab', version: '1.0.0', private: true });
  fs.writeFileSync(path.join(cdk8sApp, 'main.ts'), readmeSnippet('Example'));
  fs.writeFileSync(path.join(cdk8sApp, 'core.ts'), readmeSnippet('Core (`virtual-exporters`)'));

  writeJson(path.join(pulumiProgram, 'tsconfig.json'), pulumiTsconfig);
  writeJson(path.join(pulumiProgram, 'package.json'), { name: 'lab', main: 'index.ts' });
  fs.writeFileSync(
    path.join(pulumiProgram, 'index.ts'),
    readmeSnippet('Pulumi (`virtual-exporters/pulumi`)'),
  );
  fs.writeFileSync(path.join(pulumiProgram, 'run-with-mocks.js'), RUN_WITH_MOCKS);

  fs.mkdirSync(negative);
  fs.symlinkSync(path.join(cdk8sApp, 'node_modules'), path.join(negative, 'node_modules'), 'dir');
  writeJson(path.join(negative, 'tsconfig.json'), {
    ...cdk8sTsconfig,
    compilerOptions: { ...cdk8sTsconfig.compilerOptions, noEmit: true },
  });
  for (const [name, source] of Object.entries(NEGATIVE_SOURCES))
    fs.writeFileSync(path.join(negative, name), source);

  writeJson(path.join(esm, 'package.json'), { name: 'esm', private: true, type: 'module' });
  fs.writeFileSync(path.join(esm, 'check.js'), ESM_CHECK);
  fs.writeFileSync(path.join(esm, 'render.cjs'), CJS_RENDER);

  // Started here and awaited by the tests that need them; one at a time, because jest already runs
  // a test file per core and timing-sensitive controller tests share the machine.
  cdk8sCompile = run(TSC[0], [TSC[1], '-p', '.'], cdk8sApp);
  negativeCompile = cdk8sCompile.then(() => run(TSC[0], [TSC[1], '-p', '.', '--pretty', 'false'], negative));
  pulumiCompile = negativeCompile.then(() => run(TSC[0], [TSC[1], '-p', '.'], pulumiProgram));
}, 240_000);

afterAll(async () => {
  // Let a compile that a failed test did not await finish before its directory goes.
  await Promise.allSettled([cdk8sCompile, pulumiCompile, negativeCompile]);
  fs.rmSync(work, { recursive: true, force: true });
});

function packageFile(file: string): string {
  return path.join(esm, 'node_modules/virtual-exporters', file);
}

function failed(result: RunResult): string {
  return `exit ${result.code}\n${result.stdout}${result.stderr}`;
}

describe('packed package › contents', () => {
  it('holds the compiled library, the docs, the README and package.json, and nothing else', () => {
    const tops = [...new Set(packed.files.map((f) => f.split('/')[0]))].sort();
    expect(tops).toEqual(['README.md', 'docs', 'out', 'package.json']);
    expect(
      [...new Set(packed.files.filter((f) => f.startsWith('out/')).map((f) => f.split('/')[1]))].sort(),
    ).toEqual(['imports', 'lib']);
    expect(packed.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(packed.files).toEqual(expect.arrayContaining(['docs/api-reference.md', 'docs/security.md']));
  });

  it('ships no source maps, and no compiled file points at one', () => {
    expect(packed.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    const pointing = packed.files.filter(
      (f) => f.endsWith('.js') && fs.readFileSync(packageFile(f), 'utf8').includes('sourceMappingURL'),
    );
    expect(pointing).toEqual([]);
  });

  it('holds every file package.json names as an entry point', () => {
    const manifest = JSON.parse(fs.readFileSync(packageFile('package.json'), 'utf8'));
    const exportTargets = Object.values(
      manifest.exports as Record<string, string | Record<string, string>>,
    ).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)));
    const typesTargets = Object.values(manifest.typesVersions['*'] as Record<string, string[]>).flat();
    const named = [manifest.main, manifest.types, ...exportTargets, ...typesTargets].map((f: string) =>
      path.posix.normalize(f),
    );
    expect(named.filter((f) => !packed.files.includes(f))).toEqual([]);
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './cdk8s',
      './pulumi',
      './internal',
      './package.json',
    ]);
  });

  /** Design documents users do not have, section numbers, and `.md` files the package lacks. */
  function citations(file: string, text: string, shipped: readonly string[]): string[] {
    return text.split('\n').flatMap((line, i) => {
      const found: string[] = [];
      const cited = /\b(SPEC|INTEROP|RELIABILITY|ARCHITECTURE|TOOLCHAIN)\b|§|\.\.\/shared\b/.exec(line);
      if (cited) found.push(`${file}:${i + 1}: ${cited[0]}`);
      // Markdown links are relative to their own file; paths in code comments to the package root.
      if (file.endsWith('.md')) return found;
      for (const [, doc] of line.matchAll(/(?<![\w./-])((?:[\w-]+\/)*[\w-]+\.md)\b/g)) {
        if (!shipped.includes(doc)) found.push(`${file}:${i + 1}: ${doc} is not in the package`);
      }
      return found;
    });
  }

  it('cites no document the package does not ship (no design documents, no section numbers)', () => {
    // Compiled code, declarations (doc comments end up there) and the docs. The README is the
    // repository's own and links to the repository's other files.
    const texts = packed.files.filter((f) => /\.(js|d\.ts|json)$/.test(f) || f.startsWith('docs/'));
    expect(texts.length).toBeGreaterThan(100);
    const offenders = texts.flatMap((f) =>
      citations(f, fs.readFileSync(packageFile(f), 'utf8'), packed.files),
    );
    expect(offenders).toEqual([]);
  });

  it('finds a citation where there is one (the scan is not blind)', () => {
    const text = [
      '/** Defaults (SPEC §1). */',
      ' * see INTEROP §3',
      '// ../shared/x',
      'const SPEC_PATH = "spec"; // (docs/security.md)',
      ' * metrics are listed in controller/README.md',
    ].join('\n');
    expect(citations('x.js', text, ['docs/security.md'])).toEqual([
      'x.js:1: SPEC',
      'x.js:2: INTEROP',
      'x.js:3: ../shared',
      'x.js:5: controller/README.md is not in the package',
    ]);
  });
});

describe('packed package › module resolution', () => {
  const entries: [string, string][] = [
    ['virtual-exporters', 'out/lib/index.d.ts'],
    ['virtual-exporters/cdk8s', 'out/lib/cdk8s/index.d.ts'],
    ['virtual-exporters/pulumi', 'out/lib/pulumi/index.d.ts'],
  ];
  const modes: [string, ts.ModuleKind, ts.ModuleResolutionKind, ts.ResolutionMode][] = [
    ['node10 (cdk8s init, pulumi new)', ts.ModuleKind.CommonJS, ts.ModuleResolutionKind.Node10, undefined],
    ['node16, from CommonJS', ts.ModuleKind.Node16, ts.ModuleResolutionKind.Node16, ts.ModuleKind.CommonJS],
    [
      'nodenext, from an ES module',
      ts.ModuleKind.NodeNext,
      ts.ModuleResolutionKind.NodeNext,
      ts.ModuleKind.ESNext,
    ],
    ['bundler', ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler, undefined],
  ];

  function resolve(
    specifier: string,
    module: ts.ModuleKind,
    moduleResolution: ts.ModuleResolutionKind,
    mode: ts.ResolutionMode,
  ): string | undefined {
    const options: ts.CompilerOptions = { module, moduleResolution, strict: true };
    const result = ts.resolveModuleName(
      specifier,
      path.join(esm, 'index.ts'),
      options,
      ts.sys,
      undefined,
      undefined,
      mode,
    );
    const file = result.resolvedModule?.resolvedFileName;
    return file && path.relative(path.join(esm, 'node_modules/virtual-exporters'), file);
  }

  describe.each(modes)('%s', (_title, module, moduleResolution, mode) => {
    it.each(entries)('resolves the types of %s', (specifier, types) => {
      expect(resolve(specifier, module, moduleResolution, mode)).toBe(types);
    });
  });

  it('offers the internal entry only to node16/nodenext and bundler resolution (the controller uses nodenext)', () => {
    const [node10, , nodenext, bundler] = modes;
    expect(resolve('virtual-exporters/internal', node10[1], node10[2], node10[3])).toBeUndefined();
    expect(resolve('virtual-exporters/internal', nodenext[1], nodenext[2], nodenext[3])).toBe(
      'out/lib/internal/index.d.ts',
    );
    expect(resolve('virtual-exporters/internal', bundler[1], bundler[2], bundler[3])).toBe(
      'out/lib/internal/index.d.ts',
    );
  });

  it('loads every entry point from an ES module at run time', async () => {
    const { stdout } = await runOk(process.execPath, ['check.js'], esm);
    expect(JSON.parse(stdout)).toEqual(['virtualtarget.jumpstarter.dev', 'function', 'function', 'function']);
  });

  it('renders an off-cluster instance with the built CommonJS code the controller runs', async () => {
    const { stdout } = await runOk(process.execPath, ['render.cjs'], esm);
    expect(JSON.parse(stdout)).toEqual({
      files: [
        '/etc/jumpstarter/exporters/jumpstarter.lab.bench-0.yaml',
        '/etc/containers/systemd/jumpstarter.lab.bench-0.volume',
        '/etc/containers/systemd/jumpstarter.lab.bench-0-runtime.container',
        '/etc/containers/systemd/jumpstarter.lab.bench-0-exporter.container',
      ],
      power: true,
    });
  });
});

describe('packed package › public API', () => {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

  let program: ts.Program | undefined;

  /** Names an entry exports, from the packed declaration files alone (cdk8s and Pulumi unresolved). */
  function exportedNames(entry: string): string[] {
    program ??= ts.createProgram(packed.files.filter((f) => f.endsWith('.d.ts')).map(packageFile), {
      noEmit: true,
      noResolve: true,
      types: [],
    });
    const checker = program.getTypeChecker();
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(packageFile(entry))!)!;
    return checker.getExportsOfModule(symbol).map((s) => s.name);
  }

  it.each(['out/lib/index.d.ts', 'out/lib/cdk8s/index.d.ts', 'out/lib/pulumi/index.d.ts'])(
    '%s exports only names the README documents',
    (entry) => {
      const names = exportedNames(entry);
      expect(names.length).toBeGreaterThan(5);
      expect(names.filter((name) => !new RegExp(`\`${name}\\b`).test(readme))).toEqual([]);
    },
  );

  it('keeps internals out of the root entry', () => {
    const names = exportedNames('out/lib/index.d.ts');
    expect(names).toEqual(expect.arrayContaining(['validateExporterSet', 'exporterSetCrd', 'Labels']));
    for (const internal of ['IssueCollector', 'INT32_MAX', 'buildQemuPod', 'qemuProvisioner', 'deepMerge']) {
      expect(names).not.toContain(internal);
    }
  });
});

describe('packed package › a cdk8s app with the tsconfig `cdk8s init typescript-app` writes', () => {
  it('type-checks and compiles the README example and the core example', async () => {
    const result = await cdk8sCompile;
    expect(result.code === 0 ? '' : failed(result)).toBe('');
    expect(cdk8sTsconfig.compilerOptions).toMatchObject({ module: 'CommonJS', strict: true });
    expect(cdk8sTsconfig.compilerOptions.moduleResolution).toBeUndefined(); // node10, from module CommonJS
  });

  it('synthesizes the controller and the pool', async () => {
    await cdk8sCompile;
    await runOk(process.execPath, ['main.js'], cdk8sApp);
    const yaml = fs.readFileSync(path.join(cdk8sApp, 'dist/lab.k8s.yaml'), 'utf8');
    const objects = parseAllDocuments(yaml).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string } },
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
      expect.arrayContaining([
        'CustomResourceDefinition/exportersets.virtualtarget.jumpstarter.dev',
        'Deployment/exporter-set-controller-qemu',
        'VirtualTargetClass/x86-64-ci',
        'ExporterSet/x86-64-ci',
      ]),
    );
  });

  it('runs the core example and prints what the README says it prints', async () => {
    await cdk8sCompile;
    const { stdout } = await runOk(process.execPath, ['core.js'], cdk8sApp);
    expect(stdout).toBe(readmeOutput('Core (`virtual-exporters`)'));
  });

  it('refuses internal names from the root and mistyped props at type-check', async () => {
    const result = await negativeCompile;
    const errors = [...result.stdout.matchAll(/^([\w-]+\.ts)\(\d+,\d+\): error (TS\d+): (.*)$/gm)].map(
      ([, file, code, message]) => `${file} ${code} ${/'([^']+)'/.exec(message)?.[1] ?? message}`,
    );
    expect(errors.sort()).toEqual([
      'internal-names.ts TS2305 "virtual-exporters"',
      'internal-names.ts TS2305 "virtual-exporters"',
      'wrong-prop.ts TS2322 "sparc"',
    ]);
    expect(result.stdout).toContain("has no exported member 'IssueCollector'");
    expect(result.stdout).toContain("has no exported member 'INT32_MAX'");
  });

  it('refuses deep imports of internal files at run time', async () => {
    const deep = "require('virtual-exporters/out/lib/core/issue-collector')";
    const result = await run(process.execPath, ['-e', deep], cdk8sApp);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});

describe('packed package › a Pulumi program with the tsconfig `pulumi new typescript` writes', () => {
  it('type-checks and compiles the README example', async () => {
    const result = await pulumiCompile;
    expect(result.code === 0 ? '' : failed(result)).toBe('');
  });

  it('registers the controller and the pool under mocks', async () => {
    await pulumiCompile;
    const { stdout } = await runOk(process.execPath, ['run-with-mocks.js'], pulumiProgram);
    const { resources, selector } = JSON.parse(stdout.trim().split('\n').pop()!) as {
      resources: { type: string; name: string; inputs: Record<string, any> }[];
      selector: unknown;
    };
    expect(resources.map((r) => `${r.type}::${r.name}`)).toEqual(
      expect.arrayContaining([
        'virtual-exporters:index:ExporterSetController::lab',
        'kubernetes:apps/v1:Deployment::lab-exporter-set-controller-qemu',
        'virtual-exporters:index:QemuPool::x86-64-ci',
        'kubernetes:virtualtarget.jumpstarter.dev/v1alpha1:ExporterSet::x86-64-ci',
      ]),
    );
    const set = resources.find((r) => r.type.endsWith(':ExporterSet') && r.type.startsWith('kubernetes:'))!;
    expect(set.inputs.spec).toMatchObject({
      minAvailableReplicas: 3,
      maxReplicas: 10,
      scaleDownCooldown: '10m',
    });
    expect(selector).toEqual({ matchLabels: { board: 'x86-64-virtual', virtual: 'true' } });
  });
});
