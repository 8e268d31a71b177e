/**
 * Sets no instance of which the API server would accept, reaching the controller through an
 * ExporterSet CRD installed without our rules (an older or hand-edited CRD): a name too long for the
 * set label, template labels and annotations Kubernetes refuses on every object, a cooldown beyond
 * Go's range. The controller reports each on `SpecValid=True`→`False/InvalidSpec` with the field, the
 * value and the rule, creates nothing for it — no create ever reaches the API server, so there is no
 * loop of refused creates — and keeps serving the healthy set beside them. A Lease without a spec in
 * the same namespace stops neither the controller nor Jumpstarter's lease assignment.
 */
import { describe, expect, it } from '@jest/globals';
import {
  jumpstarterCrds,
  ourCrds,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from 'virtual-exporters/internal';
import {
  CONTROLLER,
  NS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
  writesWhenSettled,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

/** The schema without our rules and bounds: types only, as a CRD written by hand might be. */
function loosen(schema: JSONSchemaProps): JSONSchemaProps {
  const {
    'x-kubernetes-validations': _rules,
    maxLength: _maxLength,
    maxProperties: _maxProperties,
    maxItems: _maxItems,
    pattern: _pattern,
    ...rest
  } = schema;
  return {
    ...rest,
    ...(rest.properties
      ? { properties: Object.fromEntries(Object.entries(rest.properties).map(([k, v]) => [k, loosen(v)])) }
      : {}),
    ...(rest.items ? { items: loosen(rest.items) } : {}),
    ...(typeof rest.additionalProperties === 'object'
      ? { additionalProperties: loosen(rest.additionalProperties) }
      : {}),
  };
}

function looseCrd(crd: CustomResourceDefinition): CustomResourceDefinition {
  const copy = structuredClone(crd);
  for (const version of copy.spec.versions) {
    version.schema.openAPIV3Schema = loosen(version.schema.openAPIV3Schema);
  }
  return copy;
}

const CRDS = [
  ...ourCrds.map((crd) => (crd.spec.names.kind === 'ExporterSet' ? looseCrd(crd) : crd)),
  ...jumpstarterCrds,
];

const boarded = (board: string) => ({
  minAvailableReplicas: 1,
  selector: { matchLabels: { board } },
  template: { metadata: { labels: { board } }, spec: { drivers: [] } },
});

const LONG_NAME = `p${'o'.repeat(62)}l`; // 64 characters: one too many for the set label
const HUGE = 'x'.repeat(300 * 1024);

describe('sets the API server would refuse every instance of', () => {
  it('are reported and create nothing, while the healthy set and Jumpstarter keep serving', async () => {
    const scenario = await startScenario({ speedUp: 50, crds: CRDS });
    const { cluster, manager } = scenario;
    let stopped = false;
    void manager.done.then(() => (stopped = true));
    const exportersRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
    const leasesRt = cluster.registry.get('jumpstarter.dev', 'v1alpha1', 'leases')!;

    createClass(cluster);
    createSet(cluster, 'healthy', { minAvailableReplicas: 1, scaleDownCooldown: '1h' });
    const spaced = boarded('sp');
    spaced.template.metadata.labels = { board: 'sp', team: 'qa team' } as never;
    createSet(cluster, 'label-value', spaced);
    const badKey = boarded('bk');
    badKey.template.metadata.labels = { board: 'bk', 'bad key': 'x' } as never;
    createSet(cluster, 'label-key', badKey);
    const annotated = boarded('an');
    (annotated.template.metadata as Record<string, unknown>).annotations = { notes: HUGE };
    createSet(cluster, 'annotations', annotated);
    createSet(cluster, 'cooldown', { ...boarded('cd'), scaleDownCooldown: '9999999999h' });
    createSet(cluster, LONG_NAME, boarded('ln'));

    // A Lease without a spec (Jumpstarter's CRD does not require one), then a real lease.
    cluster.store.create(leasesRt, NS, {
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Lease',
      metadata: { name: 'no-spec' },
    });
    const hostile = ['label-value', 'label-key', 'annotations', 'cooldown', LONG_NAME];
    const status = (name: string) => getSet(cluster, name)?.status;
    await until(
      'the healthy set at its buffer and the hostile sets reported',
      () => status('healthy')?.availableReplicas === 1 && hostile.every((name) => status(name)?.conditions),
    );
    const leases = cluster.jumpstarter!.leases;
    leases.create({
      namespace: NS,
      name: 'work',
      selector: { matchLabels: { board: 'qemu-x86' } },
      duration: '1h',
    });
    await until('the lease served and the buffer refilled', () => {
      const lease = leases.get(NS, 'work');
      return Boolean(lease?.status?.exporterRef?.name) && status('healthy')?.availableReplicas === 1;
    });
    await cluster.settle();

    const specValid = (name: string) => {
      const c = status(name)?.conditions?.find((x) => x.type === 'SpecValid');
      return c && { status: c.status, reason: c.reason, message: c.message };
    };
    const fix = '; no instances are created until the spec is fixed (the API server would refuse them)';
    expect(specValid('label-value')).toEqual({
      status: 'False',
      reason: 'InvalidSpec',
      message: `spec.template.metadata.labels[team]: label value must be empty or consist of letters, digits, "-", "_" and ".", starting and ending with a letter or digit (e.g. "rpi4" or "true") (got "qa team")${fix}`,
    });
    expect(specValid('label-key')).toEqual({
      status: 'False',
      reason: 'InvalidSpec',
      message: `spec.template.metadata.labels[bad key]: label key must have a name part of letters, digits, "-", "_" and ".", starting and ending with a letter or digit (e.g. "board" or "kubernetes.io/arch") (got "bad key")${fix}`,
    });
    expect(specValid('annotations')).toEqual({
      status: 'False',
      reason: 'InvalidSpec',
      message: `spec.template.metadata.annotations: template annotations must total at most 255 KiB (261120), keys and values together: every instance carries them, and Kubernetes allows 256 KiB of annotations per object (got "307205 bytes")${fix}`,
    });
    expect(specValid('cooldown')).toEqual({
      status: 'False',
      reason: 'InvalidSpec',
      message: `spec.scaleDownCooldown: scaleDownCooldown is out of range: write at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns (got "9999999999h")${fix}`,
    });
    expect(specValid(LONG_NAME)).toEqual({
      status: 'False',
      reason: 'InvalidSpec',
      message: `metadata.name: metadata.name must be at most 63 characters: it is the value of the exporterset.jumpstarter.dev/name label on every instance (got "${LONG_NAME}")${fix}`,
    });

    // Nothing was created for them: no Exporter, and not one create the API server refused.
    for (const name of hostile) expect(instancesOf(cluster, name)).toEqual([]);
    expect(cluster.counters.totalWithCode(422, { identity: CONTROLLER })).toBe(0);
    const exporterCreates = cluster.counters.total({
      identity: CONTROLLER,
      verb: 'create',
      group: 'jumpstarter.dev',
      resource: 'exporters',
    });
    expect(exporterCreates).toBe(cluster.store.list(exportersRt, NS).items.length);

    // Settled: a minute of cluster time costs no write; the controller is up and the healthy set whole.
    expect(await writesWhenSettled(cluster, 60_000)).toBe(0);
    expect(stopped).toBe(false);
    expect(status('healthy')).toMatchObject({ replicas: 2, leasedReplicas: 1, availableReplicas: 1 });
    expect(cluster.store.get(leasesRt, NS, 'no-spec').status).toBeUndefined();
  });
});
