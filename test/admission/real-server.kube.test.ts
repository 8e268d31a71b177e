/**
 * Admission, three ways: a real kube-apiserver (startKubeCluster, kube/bin) judges what the project
 * ships and what its tests claim about admission.
 *
 * 1. Our CRDs, Jumpstarter's, and the upstream-strict variants are accepted — the real server checks
 *    structural schemas and compiles every CEL rule within its cost limits — and served as written.
 * 2. Everything `npm run synth` writes (examples/gitops → dist/controller.k8s.yaml and
 *    dist/pools.k8s.yaml; examples/install → dist/install.yaml and dist/monitoring.yaml) and the
 *    Kubernetes objects of examples/pulumi-lab (under Pulumi's mocks, no engine) are admitted by a
 *    server-side dry run of `kubectl apply --server-side`, with kubectl's strict field validation.
 *    The pools are admitted by the upstream-strict CRDs too, and by upstream's own where they are at hand.
 * 3. Every case of the shared tables — the hostile corpus (test/hostile/corpus.ts) and our CRD and
 *    CEL cases (test/admission/cases.ts) — gets the real server's verdict from the test cluster: the
 *    same accept or refuse, the same refused write, code and reason, the same causes (field, type and
 *    words) and the same message; and synth-time validation refuses exactly the objects the real
 *    server refuses.
 *
 * kube-apiserver orders the causes of one refusal by Go map iteration where they come from different
 * properties of an object, so causes are compared as sets and messages as their prefix and causes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Testing, Yaml } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import {
  startKubeCluster,
  startTestCluster,
  type KubeCluster,
  type TestCluster,
} from 'virtual-exporters-test-cluster';
import { buildGitopsApp } from '../../examples/gitops/app';
import { buildInstallChart, installFiles } from '../../examples/install/app';
import { validateExporterOperation, validateExporterSet, validateVirtualTargetClass } from '../../lib/core';
import { jumpstarterCrds, ourCrds, upstreamStrictCrds, type CustomResourceDefinition } from '../../lib/crds';
import { CORPUS } from '../hostile/corpus';
import { MockStack } from '../pulumi/support/mock-stack';
import { describeWithUpstream, upstreamCrd, upstreamExamples } from '../support/upstream-reference';
import { JEP_FIXTURES_DIR, UPSTREAM_STYLE_FIXTURES_DIR, manifestsIn } from '../crds/manifests';
import { testApp } from '../support/synth';
import { ADMISSION_CASES } from './cases';
import { HttpJudge, type Cause, type Verdict } from './judge';
import { writesOf, type Write } from './writes';

type Json = Record<string, any>;

// examples/pulumi-lab under Pulumi's mocks (process-wide: set before the program is imported).
const stack = await MockStack.start('pulumi-lab', 'lab');
await import('../../examples/pulumi-lab/index');
await stack.settle();
const pulumiLab: Json[] = stack
  .all()
  .filter((r) => r.custom && r.type.startsWith('kubernetes:'))
  .map((r) => r.inputs);

/** What `npm run synth` writes, by file, as the same functions build it (examples/gitops, examples/install). */
const gitops = Object.fromEntries(
  buildGitopsApp(testApp()).charts.map(
    (chart) => [`${chart.node.id}.k8s.yaml`, Testing.synth(chart) as Json[]] as const,
  ),
);
const install = installFiles(buildInstallChart(testApp()));
const parse = (text: string): Json[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Json | null)
    .filter((o): o is Json => o !== null);

/** The kinds the project ships objects of but no CRDs for: the Prometheus Operator's (monitoring pack). */
const UNSERVED_KINDS = ['monitoring.coreos.com/v1 PrometheusRule', 'monitoring.coreos.com/v1 ServiceMonitor'];
const unserved = (o: Json) => UNSERVED_KINDS.includes(`${o.apiVersion} ${o.kind}`);

const SOURCES: [string, Json[]][] = [
  ['dist/controller.k8s.yaml (examples/gitops)', gitops['controller.k8s.yaml']],
  ['dist/pools.k8s.yaml (examples/gitops)', gitops['pools.k8s.yaml']],
  ['dist/install.yaml (examples/install)', parse(install['install.yaml'])],
  ['dist/monitoring.yaml (examples/install)', parse(install['monitoring.yaml'])],
  ['examples/pulumi-lab', pulumiLab],
];

let kube: KubeCluster;
let test: TestCluster;

beforeAll(async () => {
  kube = await startKubeCluster({ controllerManager: false });
  test = await startTestCluster();
}, 180_000);
afterAll(async () => {
  await test?.stop();
  await kube?.stop();
});

/** `kubectl apply --server-side --dry-run=server` of `objects` (kubectl's default, strict field validation). */
async function dryRunApply(objects: readonly Json[]) {
  const result = await kube.kubectl(['apply', '--server-side', '--dry-run=server', '-f', '-'], {
    input: Yaml.stringify(...objects),
  });
  return { ...result, applied: result.stdout.split('\n').filter(Boolean) };
}

/** The line kubectl prints for an object it applied in a dry run. */
function appliedLine(o: Json): string {
  const [group] = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/') : [''];
  const resource = `${String(o.kind).toLowerCase()}${group ? `.${group}` : ''}`;
  return `${resource}/${o.metadata.name} serverside-applied (server dry run)`;
}

/** The namespaces the objects name, created first (a dry run does not create them). */
async function ensureNamespaces(objects: readonly Json[]) {
  for (const ns of new Set(objects.map((o) => o.metadata?.namespace).filter(Boolean))) {
    await kube.ensureNamespace(ns);
  }
}

/** The stored CRD, read back as kubectl sees it. */
async function storedCrd(name: string): Promise<Json> {
  const result = await kube.kubectl(['get', 'crd', name, '-o', 'json']);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout);
}

/** What of a CRD the API server must keep as written: names, scope, versions with schema and subresources. */
const asWritten = (crd: CustomResourceDefinition | Json) => ({
  group: crd.spec.group,
  names: crd.spec.names,
  scope: crd.spec.scope,
  versions: crd.spec.versions,
});

describe('our CRDs on a real API server', () => {
  it.each([...ourCrds, ...jumpstarterCrds].map((crd) => [crd.metadata.name, crd] as const))(
    'accepts %s (structural schema, CEL rules within the cost limits) and serves it as written',
    async (name, crd) => {
      const stored = await storedCrd(name);
      expect(stored.status.conditions).toContainEqual(
        expect.objectContaining({ type: 'Established', status: 'True' }),
      );
      expect(asWritten(stored)).toEqual(expect.objectContaining(asWritten(crd)));
    },
  );
});

describe('what npm run synth writes and the examples produce, admitted by a server-side dry run', () => {
  beforeAll(async () => {
    await ensureNamespaces(SOURCES.flatMap(([, objects]) => objects));
  });

  it('has objects in every source, some fifty in all', () => {
    for (const [, objects] of SOURCES) expect(objects.length).toBeGreaterThan(0);
    expect(SOURCES.flatMap(([, objects]) => objects).length).toBeGreaterThanOrEqual(50);
  });

  it.each(SOURCES)('%s', async (_source, objects) => {
    const served = objects.filter((o) => !unserved(o));
    // dist/monitoring.yaml holds only kinds the cluster does not serve (the next test).
    if (served.length === 0) return expect(objects.every(unserved)).toBe(true);
    const result = await dryRunApply(served);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.applied).toEqual(served.map(appliedLine));
  });

  it(`skips only the kinds whose CRDs the project does not ship (${UNSERVED_KINDS.join(', ')}), which the cluster does not serve`, async () => {
    const skipped = SOURCES.flatMap(([, objects]) => objects.filter(unserved));
    expect(skipped.map((o) => `${o.apiVersion} ${o.kind}`).sort()).toEqual([...UNSERVED_KINDS].sort());
    const result = await dryRunApply(skipped);
    expect(result.code).not.toBe(0);
    for (const o of skipped) {
      expect(result.stderr).toContain(`no matches for kind "${o.kind}" in version "${o.apiVersion}"`);
    }
  });

  it('would refuse an object with a field the schema does not know (the dry run judges, strictly)', async () => {
    const set = structuredClone(gitops['pools.k8s.yaml'].find((o) => o.kind === 'ExporterSet')!);
    set.spec.replicas = 3;
    const result = await dryRunApply([set]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('.spec.replicas: field not declared in schema');
  });
});

describe('the examples our CRD tests admit are admitted by the real server too (test/crds/acceptance.test.ts)', () => {
  const fixtures = [...manifestsIn(JEP_FIXTURES_DIR), ...manifestsIn(UPSTREAM_STYLE_FIXTURES_DIR)].map(
    (m) => m.manifest as Json,
  );

  it('the JEP-0014 examples and our fixtures in the style of upstream', async () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(12);
    await ensureNamespaces(fixtures);
    const result = await dryRunApply(fixtures);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.applied).toEqual(fixtures.map(appliedLine));
  });
});

describeWithUpstream(
  "upstream's samples and e2e manifests are admitted by our CRDs on the real server",
  () => {
    it('every one of our kinds', async () => {
      const ours = upstreamExamples()
        .map((m) => m.manifest as Json)
        .filter((o) => String(o.apiVersion).startsWith('virtualtarget.jumpstarter.dev/'));
      expect(ours.length).toBeGreaterThanOrEqual(10);
      await ensureNamespaces(ours);
      const result = await dryRunApply(ours);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.applied).toEqual(ours.map(appliedLine));
    });
  },
);

// ---- the shared tables ----

interface TableCase {
  readonly name: string;
  readonly writes: readonly Write[];
  /** The object synth-time validation judges (a create of one of our kinds), when there is one. */
  readonly object?: Json;
  /** Why synth time refuses this object though the API server admits it (cases.ts). */
  readonly stricterThanTheCrd?: string;
}

const OUR_KINDS: Record<string, (o: unknown) => unknown[]> = {
  ExporterSet: validateExporterSet,
  VirtualTargetClass: validateVirtualTargetClass,
  ExporterOperation: validateExporterOperation,
};

const TABLE: TableCase[] = [
  ...CORPUS.map((c) => ({
    name: `corpus › ${c.kind}: ${c.what}`,
    writes: c.writes,
    ...(c.writes.length === 1 && c.writes[0].verb === 'create' && OUR_KINDS[c.kind]
      ? { object: c.writes[0].object }
      : {}),
  })),
  ...ADMISSION_CASES.map((c) => ({
    name: `${c.group} › ${c.name}`,
    writes: writesOf(c.object, c.oldObject),
    ...(!c.oldObject && OUR_KINDS[c.object.kind] ? { object: c.object } : {}),
    ...(c.synth?.stricterThanTheCrd ? { stricterThanTheCrd: c.synth.stricterThanTheCrd } : {}),
  })),
];

/** A verdict in a form that does not depend on the order of the causes. */
function comparable(v: Verdict) {
  if (v.admitted) return { admitted: true };
  const line = (c: Cause) => `${c.field}: ${c.message}`;
  const prefix = v.message.slice(0, v.message.indexOf(' is invalid: ') + ' is invalid: '.length);
  const lines = v.causes.map(line);
  const summary = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  return {
    admitted: false,
    write: v.write,
    code: v.code,
    reason: v.reason,
    causes: [...v.causes].sort((a, b) => line(a).localeCompare(line(b))),
    // A 422's message is `<Kind>.<group> "<name>" is invalid: ` and its causes, in their order.
    message: v.code === 422 ? { prefix, isPrefixAndCauses: v.message === `${prefix}${summary}` } : v.message,
  };
}

describe('the shared cases: the real server says what the test cluster says', () => {
  let real: HttpJudge;
  let fake: HttpJudge;
  beforeAll(() => {
    real = new HttpJudge(kube.kubeConfig, 'case');
    fake = new HttpJudge(test.kubeConfig, 'case');
  });

  it('judges every case of both tables', () => {
    expect(TABLE.length).toBe(CORPUS.length + ADMISSION_CASES.length);
    expect(TABLE.length).toBeGreaterThanOrEqual(250);
  });

  it.each(TABLE.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const onReal = await real.judge(c.writes);
    const onTest = await fake.judge(c.writes);
    expect(comparable(onTest)).toEqual(comparable(onReal));
    if (c.object) {
      // Synth time refuses exactly what the API server refuses — but where it is stricter on purpose.
      const issues = OUR_KINDS[c.object.kind](c.object);
      const refused = c.stricterThanTheCrd ? true : !onReal.admitted;
      if (c.stricterThanTheCrd) expect(onReal.admitted).toBe(true);
      expect({ refusedAtSynthTime: issues.length > 0, issues }).toEqual(
        expect.objectContaining({ refusedAtSynthTime: refused }),
      );
    }
  });
});

// ---- upstream's CRDs (last: they replace ours) ----

/** The ExporterSets and classes we write: the gitops pools and examples/pulumi-lab's. */
const POOLS = [...gitops['pools.k8s.yaml'], ...pulumiLab].filter(
  (o) => o.kind === 'ExporterSet' || o.kind === 'VirtualTargetClass',
);

describe("what we write fits a cluster with upstream's CRDs (INTEROP §7)", () => {
  it('counts the pools it checks', () => {
    expect(POOLS.filter((o) => o.kind === 'ExporterSet')).toHaveLength(6);
    expect(POOLS.filter((o) => o.kind === 'VirtualTargetClass')).toHaveLength(7);
  });

  it('the upstream-strict variants are accepted, and admit every pool we write', async () => {
    await kube.installCrds(upstreamStrictCrds);
    for (const crd of upstreamStrictCrds) {
      expect(asWritten(await storedCrd(crd.metadata.name))).toEqual(expect.objectContaining(asWritten(crd)));
    }
    const result = await dryRunApply(POOLS);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.applied).toEqual(POOLS.map(appliedLine));
  });

  it('they refuse a driver without a name (what our relaxation allows)', async () => {
    const set = structuredClone(POOLS.find((o) => o.kind === 'ExporterSet')!);
    delete set.spec.template.spec.drivers[0].name;
    const result = await dryRunApply([set]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('spec.template.spec.drivers[0].name: Required value');
  });
});

describeWithUpstream("what we write fits a cluster with upstream's own CRDs", () => {
  it('they are accepted, and admit every pool we write', async () => {
    const crds = [upstreamCrd('VirtualTargetClass'), upstreamCrd('ExporterSet')];
    await kube.installCrds(crds);
    const result = await dryRunApply(POOLS);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.applied).toEqual(POOLS.map(appliedLine));
  });
});
