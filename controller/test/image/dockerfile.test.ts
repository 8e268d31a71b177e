// What can be checked of controller/Dockerfile without building it: the base as a build argument, a
// production-only install, the non-root user and an entrypoint that runs the installer's arguments.
// `npm run image` builds the image and runs it (scripts/image).
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  buildExporterSetController,
  CONTROLLER_UID,
  DEFAULT_CONTROLLER_IMAGE,
  HEALTH_PORT,
  METRICS_PORT,
} from 'virtual-exporters/internal';
import { parseCommandLine } from '../../src/process/options';

const root = process.cwd();
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  readonly keyword: string;
  readonly value: string;
}

interface Stage {
  readonly from: string;
  readonly name?: string;
  readonly instructions: Instruction[];
}

/** Instructions of a Dockerfile: comments dropped, continuation lines joined, keywords upper-cased. */
function parseDockerfile(text: string): { globals: Instruction[]; stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    pending += `${continued ? line.replace(/\\\s*$/, '') : line} `;
    if (!continued) {
      if (pending.trim()) logical.push(pending.trim().replace(/\s+/g, ' '));
      pending = '';
    }
  }
  const globals: Instruction[] = [];
  const stages: Stage[] = [];
  for (const entry of logical) {
    const [keyword, ...rest] = entry.split(' ');
    const instruction = { keyword: keyword.toUpperCase(), value: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const [from, as, name] = rest;
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) globals.push(instruction);
    else stages[stages.length - 1].instructions.push(instruction);
  }
  return { globals, stages };
}

const dockerfile = parseDockerfile(read('controller/Dockerfile'));
const runtime = dockerfile.stages[dockerfile.stages.length - 1];
const inRuntime = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);

function installerContainer() {
  const deployment = buildExporterSetController({}).find((o) => o.kind === 'Deployment') as unknown as {
    spec: { template: { spec: { containers: Record<string, unknown>[] } } };
  };
  return deployment.spec.template.spec.containers[0] as {
    image: string;
    command?: string[];
    args: string[];
    securityContext: { runAsUser: number; runAsGroup: number };
  };
}

describe('controller image › Dockerfile', () => {
  it('takes the Node base as a build argument, the official Node 22 slim image by default', () => {
    expect(dockerfile.globals).toContainEqual({
      keyword: 'ARG',
      value: 'NODE_BASE=docker.io/library/node:22-bookworm-slim',
    });
    expect(dockerfile.stages.map((stage) => stage.from)).toEqual(dockerfile.stages.map(() => '${NODE_BASE}'));
  });

  it('builds in one stage and ships only what the build stage gathered', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    const build = dockerfile.stages[0];
    expect(build.name).toBe('build');
    expect(inRuntime('RUN')).toEqual([]);
    const copies = inRuntime('COPY');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(copy.value).toMatch(/^--from=build /);
  });

  it('installs production dependencies only, after compiling, and keeps the controller’s own node_modules', () => {
    const runs = dockerfile.stages[0].instructions.filter((i) => i.keyword === 'RUN').map((i) => i.value);
    const last = runs[runs.length - 1];
    const build = last.indexOf('npm run build');
    const prodInstall = last.indexOf('npm ci --omit=dev');
    expect(build).toBeGreaterThanOrEqual(0);
    expect(prodInstall).toBeGreaterThan(build);
    // The controller's dependencies nest under controller/node_modules where the root's versions differ.
    expect(last).toMatch(/controller\/node_modules \/app\/controller\//);
    expect(last.slice(prodInstall)).toMatch(/cp -a package\.json out node_modules \/app\//);
  });

  it('builds only the library and the controller, never the test cluster or the tools', () => {
    const build = dockerfile.stages[0].instructions;
    const copied = build.filter((i) => i.keyword === 'COPY').map((i) => i.value);
    for (const other of ['test-cluster', 'tools']) {
      expect(copied.filter((value) => value.includes(other))).toEqual([]);
      expect(read('.dockerignore').split('\n')).toContain(other);
    }
    const runs = build.filter((i) => i.keyword === 'RUN').map((i) => i.value);
    expect(runs[runs.length - 1]).toMatch(/^npm run build:controller /);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['build:controller']).toBe('tsc -p tsconfig.build.json && tsc -p controller/tsconfig.json');
  });

  it("runs as the installer's non-root uid", () => {
    const users = inRuntime('USER').map((i) => i.value);
    const { securityContext } = installerContainer();
    expect(users).toEqual([`${CONTROLLER_UID}:${CONTROLLER_UID}`]);
    expect([securityContext.runAsUser, securityContext.runAsGroup]).toEqual([CONTROLLER_UID, CONTROLLER_UID]);
  });

  it("has the controller as its entrypoint, so the installer's arguments are its whole command line", () => {
    const entrypoints = inRuntime('ENTRYPOINT').map((i) => JSON.parse(i.value) as string[]);
    expect(entrypoints).toEqual([['/usr/local/bin/node', '/app/controller/out/main.js']]);
    expect(inRuntime('CMD')).toEqual([]);
    const controllerPackage = JSON.parse(read('controller/package.json')) as { bin: Record<string, string> };
    expect(path.posix.join('/app/controller', controllerPackage.bin['exporter-set-controller'])).toBe(
      entrypoints[0][1],
    );
    const container = installerContainer();
    expect(container.command).toBeUndefined();
    const parsed = parseCommandLine(container.args);
    expect(parsed.kind).toBe('run');
  });

  it('exposes the ports the Deployment names', () => {
    expect(inRuntime('EXPOSE').map((i) => i.value)).toEqual([`${METRICS_PORT} ${HEALTH_PORT}`]);
  });
});

describe('controller image › reference', () => {
  const version = (JSON.parse(read('package.json')) as { version: string }).version;
  const buildCommand = `docker build -f controller/Dockerfile -t ${DEFAULT_CONTROLLER_IMAGE} .`;

  it("is the installer's default: exporter-set-controller tagged with the package version", () => {
    expect(DEFAULT_CONTROLLER_IMAGE).toBe(`exporter-set-controller:${version}`);
    expect(installerContainer().image).toBe(DEFAULT_CONTROLLER_IMAGE);
  });

  it('is what the README, the Dockerfile and the installer docs tell people to build', () => {
    expect(read('controller/README.md')).toContain(buildCommand);
    expect(read('controller/Dockerfile')).toContain(buildCommand);
    // Documented once, on the installer's input; the cdk8s props and Pulumi args carry that doc
    // (test/props/derived-docs.test.ts reads it on both).
    for (const file of ['lib/manifests/installer.ts']) {
      expect(read(file)).toContain(`@default "${DEFAULT_CONTROLLER_IMAGE}"`);
      expect(read(file)).toContain(buildCommand);
    }
  });
});
