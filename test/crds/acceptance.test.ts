/**
 * Everything upstream ships and every complete example of JEP-0014 is admitted by our CRDs, with
 * nothing pruned. The JEP's examples are reconstructed in test/fixtures/jep (its YAML lost its line
 * breaks). Not reconstructed, because they are not complete objects of our kinds: the rendered Pod
 * sketch, the Jumpstarter operator CR, the `<placeholder>` field skeletons of "common fields", the
 * deep-merge illustration and the bare `status:` snippet.
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
import { JEP_FIXTURES_DIR, UPSTREAM_DIR, manifestsIn, readManifests, type Manifest } from './manifests';

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

const upstreamManifests = [
  ...manifestsIn(path.join(UPSTREAM_DIR, 'samples')),
  ...manifestsIn(path.join(UPSTREAM_DIR, 'e2e')),
].map((m) => [label(m), m] as const);
const jepManifests = manifestsIn(JEP_FIXTURES_DIR).map((m) => [label(m), m] as const);

describe('upstream samples and e2e manifests', () => {
  it('are all found', () => {
    expect(upstreamManifests.length).toBeGreaterThanOrEqual(10);
  });

  it.each(upstreamManifests)('admits %s unchanged but for defaults', (_label, { manifest }) => {
    const result = admit(crdFor(manifest), manifest);
    expect(result.errors).toEqual([]);
    expect(result.pruned).toEqual([]);
    expect(result.object).toMatchObject(manifest);
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
    const upstreamSets = readManifests(
      path.join(UPSTREAM_DIR, 'crds', 'virtualtarget.jumpstarter.dev_exportersets.yaml'),
    ) as unknown as CustomResourceDefinition[];
    const [manifest] = readManifests(path.join(JEP_FIXTURES_DIR, 'rpi4-virtual-set-phase1.yaml'));
    const drivers = 'spec.template.spec.drivers';
    // A missing required field blocks the CEL rules, so upstream's "name is required" never runs.
    const expected = [
      ...[0, 1, 2].map((i) => ({ path: `${drivers}[${i}].name`, message: 'Required value' })),
      { path: '', message: CEL_SKIPPED_MESSAGE },
    ];
    const { errors } = admit(upstreamSets[0], manifest);
    expect(errors).toHaveLength(expected.length);
    expect(errors).toEqual(expect.arrayContaining(expected));
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
