/**
 * Everything upstream ships and every complete example of JEP-0014 is admitted by our CRDs, with
 * nothing pruned. The JEP's examples are reconstructed in test/fixtures/jep (its YAML lost its line
 * breaks). Not reconstructed, because they are not complete objects of our kinds: the rendered Pod
 * sketch, the Jumpstarter operator CR, the `<placeholder>` field skeletons of "common fields", the
 * deep-merge illustration and the bare `status:` snippet. Upstream's own samples are used where they
 * are at hand (../shared/upstream); fixtures of ours in their style (test/fixtures/upstream-style)
 * stand in for them everywhere.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import {
  exporterCrd,
  exporterSetCrd,
  leaseCrd,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
} from '../../lib/crds';
import { CEL_SKIPPED_MESSAGE, admit } from '../support/crd-validator';
import {
  FACT_TABLE_CRDS,
  UPSTREAM_STRICT_CRDS,
  admissionProblems,
  referenceCrds,
} from '../support/upstream-admission';
import { describeWithUpstream, upstreamExamples } from '../support/upstream-reference';
import {
  JEP_FIXTURES_DIR,
  UPSTREAM_STYLE_FIXTURES_DIR,
  manifestsIn,
  readManifests,
  type Manifest,
} from './manifests';

const crdByKind: Record<string, CustomResourceDefinition> = {
  ExporterSet: exporterSetCrd,
  VirtualTargetClass: virtualTargetClassCrd,
  Exporter: exporterCrd,
  Lease: leaseCrd,
};

function crdFor(manifest: Manifest): CustomResourceDefinition {
  const crd = crdByKind[manifest.kind];
  if (!crd) throw new Error(`no CRD of ours for kind ${manifest.kind}`);
  expect(manifest.apiVersion).toBe(`${crd.spec.group}/${crd.spec.versions[0].name}`);
  return crd;
}

const label = ({ file, manifest }: { file: string; manifest: Manifest }) =>
  `${file}: ${manifest.kind} ${(manifest.metadata as { name?: string }).name}`;

const DRIVERS = 'spec.template.spec.drivers';
/** What upstream's CRD says of the JEP's rpi4 set, whose three drivers have no name. */
// A missing required field blocks the CEL rules, so upstream's "name is required" never runs.
const NAMELESS_DRIVER_ERRORS = [
  ...[0, 1, 2].map((i) => ({ path: `${DRIVERS}[${i}].name`, message: 'Required value' })),
  { path: '', message: CEL_SKIPPED_MESSAGE },
];

const upstreamStyleManifests = manifestsIn(UPSTREAM_STYLE_FIXTURES_DIR).map((m) => [label(m), m] as const);
const jepManifests = manifestsIn(JEP_FIXTURES_DIR).map((m) => [label(m), m] as const);

/** Problems admitting `manifest` under our CRD: errors, pruned fields, or a change beyond defaults. */
function ourAdmissionProblems(manifest: Manifest): string[] {
  const result = admit(crdFor(manifest), manifest);
  const problems = [
    ...result.errors.map((e) => `${e.path}: ${e.message}`),
    ...result.pruned.map((p) => `${p}: pruned`),
  ];
  try {
    expect(result.object).toMatchObject(manifest);
  } catch {
    problems.push('changed by admission beyond defaults');
  }
  return problems;
}

describe("fixtures in the style of upstream's samples", () => {
  it('cover both kinds, with named drivers, images, requests and limits', () => {
    const kinds = upstreamStyleManifests.map(([, m]) => m.manifest.kind).sort();
    expect(kinds).toEqual(['ExporterSet', 'ExporterSet', 'VirtualTargetClass', 'VirtualTargetClass']);
  });

  it.each(upstreamStyleManifests)('admits %s unchanged but for defaults', (_label, { manifest }) => {
    expect(ourAdmissionProblems(manifest)).toEqual([]);
  });

  it("are admitted by upstream's CRDs too (strict variant and fact table): they are upstream's kind of object", () => {
    const manifests = upstreamStyleManifests.map(([, m]) => m.manifest);
    // Written without the defaults, so compare what admission says, not the object.
    const errorsOnly = (problems: string[]) =>
      problems.filter((p) => !p.endsWith('(a default not written out)'));
    expect(errorsOnly(admissionProblems(manifests, UPSTREAM_STRICT_CRDS))).toEqual([]);
    expect(errorsOnly(admissionProblems(manifests, FACT_TABLE_CRDS))).toEqual([]);
  });
});

describeWithUpstream("upstream's samples and e2e manifests", () => {
  it('are all found', () => {
    expect(upstreamExamples().length).toBeGreaterThanOrEqual(10);
  });

  it('are each admitted unchanged but for defaults', () => {
    const problems = upstreamExamples().flatMap((m) =>
      ourAdmissionProblems(m.manifest).map((p) => `${label(m)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it("rejects the JEP's nameless drivers exactly as the fact table says", () => {
    const [manifest] = readManifests(path.join(JEP_FIXTURES_DIR, 'rpi4-virtual-set-phase1.yaml'));
    expect(admit(referenceCrds().ExporterSet, manifest).errors).toEqual(NAMELESS_DRIVER_ERRORS);
  });
});

describe('JEP-0014 examples', () => {
  it('are all reconstructed', () => {
    const kinds = jepManifests.map(([, m]) => m.manifest.kind).sort();
    // qemu-rpi4, corellium-kronos, qcom-sa8295-baremetal; rpi4-virtual ×2, pixel7-emulator,
    // qcom-sa8295-hifi; the disabled Exporter.
    expect(kinds).toEqual([
      'Exporter',
      'ExporterSet',
      'ExporterSet',
      'ExporterSet',
      'ExporterSet',
      'VirtualTargetClass',
      'VirtualTargetClass',
      'VirtualTargetClass',
    ]);
  });

  it.each(jepManifests)('admits %s with nothing pruned', (_label, { manifest }) => {
    const result = admit(crdFor(manifest), manifest);
    expect(result.errors).toEqual([]);
    expect(result.pruned).toEqual([]);
    const { status: _status, ...rest } = manifest;
    expect(result.object).toMatchObject(rest);
  });

  it("needs our one relaxation: upstream's CRD rejects their nameless drivers", () => {
    const [manifest] = readManifests(path.join(JEP_FIXTURES_DIR, 'rpi4-virtual-set-phase1.yaml'));
    for (const upstreamSets of [FACT_TABLE_CRDS.ExporterSet, UPSTREAM_STRICT_CRDS.ExporterSet]) {
      expect(admit(upstreamSets, manifest).errors).toEqual(NAMELESS_DRIVER_ERRORS);
    }
    expect(admit(exporterSetCrd, manifest).errors).toEqual([]);
  });

  it('drops the status block of the rpi4-virtual example on create (status subresource)', () => {
    const [manifest] = readManifests(path.join(JEP_FIXTURES_DIR, 'rpi4-virtual-set-core-concept.yaml'));
    expect(manifest.status).toBeDefined();
    expect(admit(exporterSetCrd, manifest).object.status).toBeUndefined();
  });

  it('keeps the disabled Exporter disabled', () => {
    const [manifest] = readManifests(path.join(JEP_FIXTURES_DIR, 'exporter-disabled.yaml'));
    expect(admit(exporterCrd, manifest).object.spec).toEqual({ enabled: false });
  });
});

describe('defaulting', () => {
  const minimalSet = {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'pool', namespace: 'lab' },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
    },
  };

  it('fills the ExporterSet sizes, cooldown and recycle strategy (SPEC §1)', () => {
    const result = admit(exporterSetCrd, minimalSet);
    expect(result.errors).toEqual([]);
    expect(result.object.spec).toMatchObject({
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: 0,
      scaleDownCooldown: '5m',
      recycleStrategy: 'ExitAndReplace',
    });
  });

  it('keeps values that are given', () => {
    const spec = {
      ...minimalSet.spec,
      maxReplicas: 0,
      scaleDownCooldown: '1h',
      recycleStrategy: 'InPlaceReuse',
    };
    expect(admit(exporterSetCrd, { ...minimalSet, spec }).object.spec).toMatchObject({
      maxReplicas: 0,
      scaleDownCooldown: '1h',
      recycleStrategy: 'InPlaceReuse',
    });
  });

  it('fills the class binding mode, reclaim policy and CA bundle key', () => {
    const result = admit(virtualTargetClassCrd, {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: 'qemu', namespace: 'lab' },
      spec: { provisioner: 'qemu.jumpstarter.dev', caBundleConfigMapRef: { name: 'corp-ca' } },
    });
    expect(result.errors).toEqual([]);
    expect(result.object.spec).toEqual({
      provisioner: 'qemu.jumpstarter.dev',
      bindingMode: 'Immediate',
      reclaimPolicy: 'Delete',
      caBundleConfigMapRef: { name: 'corp-ca', key: 'ca-bundle.crt' },
    });
  });

  it('fills the defaults of the JEP examples that leave them out', () => {
    const pixel = jepManifests.find(([l]) => l.includes('pixel7-emulator'))![1].manifest;
    expect(admit(exporterSetCrd, pixel).object.spec).toMatchObject({
      scaleDownCooldown: '5m',
      recycleStrategy: 'ExitAndReplace',
    });
    const sa8295 = jepManifests.find(([l]) => l.includes('qcom-sa8295-baremetal'))![1].manifest;
    expect(admit(virtualTargetClassCrd, sa8295).object.spec).toMatchObject({ reclaimPolicy: 'Delete' });
  });

  it('enables an Exporter that does not say otherwise', () => {
    const result = admit(exporterCrd, {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: { name: 'e' },
      spec: {},
    });
    expect(result.object.spec).toEqual({ enabled: true });
  });
});
