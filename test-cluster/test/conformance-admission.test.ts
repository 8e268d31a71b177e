/**
 * Conformance of CRD admission, through @kubernetes/client-node: our CRDs' defaults are applied, and
 * objects that break the structural schema or a CEL rule are refused with 422 Invalid and the rule's
 * own message, as a real API server does with the same CRDs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { Defaults, RuleMessages } from 'virtual-exporters/internal';
import {
  clientsFor,
  exporterSet,
  exporterSets,
  rejection,
  START_TIMEOUT_MS,
  startConformanceCluster,
  type Clients,
  type ConformanceCluster,
} from './conformance-support';

let cluster: ConformanceCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startConformanceCluster();
  api = clientsFor(cluster.kubeConfig);
}, START_TIMEOUT_MS);
afterAll(() => cluster?.stop());

const create = (body: Record<string, unknown>) =>
  api.custom.createNamespacedCustomObject({ ...exporterSets, namespace: 'default', body });

/** The messages of a 422 Status: the top-level message and every cause. */
const messages = (status: Record<string, any>) => [
  status.message as string,
  ...((status.details?.causes ?? []) as { message: string }[]).map((cause) => cause.message),
];

describe('admission › defaulting', () => {
  it('fills in the schema defaults of an ExporterSet', async () => {
    const created = await create(exporterSet('defaults'));
    expect(created.spec).toMatchObject({
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: Defaults.minAvailableReplicas,
      scaleDownCooldown: Defaults.scaleDownCooldown,
      recycleStrategy: Defaults.recycleStrategy,
    });
  });
});

describe('admission › rejection', () => {
  it('refuses a schema violation with 422 Invalid naming the field', async () => {
    const result = await rejection(create(exporterSet('negative', { minReplicas: -1 })));
    expect(result.code).toBe(422);
    expect(result.status).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(JSON.stringify(result.status)).toContain('minReplicas');
  });

  it('refuses a missing required field with 422', async () => {
    const body = exporterSet('no-class');
    delete body.spec.virtualTargetClassName;
    expect((await rejection(create(body))).code).toBe(422);
  });

  it("refuses a CEL rule violation with 422 and the rule's message", async () => {
    const result = await rejection(create(exporterSet('inverted', { minReplicas: 5, maxReplicas: 2 })));
    expect(result.code).toBe(422);
    expect(result.status.reason).toBe('Invalid');
    expect(messages(result.status).join('\n')).toContain(RuleMessages.minReplicasLeMax);
  });

  it('checks CEL rules on updates and patches too, and keeps the stored object', async () => {
    await create(exporterSet('patched', { maxReplicas: 2 }));
    const result = await rejection(
      api.custom.patchNamespacedCustomObject(
        { ...exporterSets, namespace: 'default', name: 'patched', body: { spec: { minReplicas: 3 } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    expect(result.code).toBe(422);
    expect(messages(result.status).join('\n')).toContain(RuleMessages.minReplicasLeMax);
    const stored = await api.custom.getNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      name: 'patched',
    });
    expect(stored.spec.minReplicas).toBe(0);
  });
});

describe('admission › words', () => {
  const GROUP = exporterSets.group;
  it.each([
    {
      what: 'a schema minimum',
      body: () => exporterSet('words-minimum', { minReplicas: -1 }),
      message: `ExporterSet.${GROUP} "words-minimum" is invalid: spec.minReplicas: Invalid value: -1: spec.minReplicas in body should be greater than or equal to 0`,
    },
    {
      what: 'a CEL rule',
      body: () => exporterSet('words-cel', { minReplicas: 5, maxReplicas: 2 }),
      message: `ExporterSet.${GROUP} "words-cel" is invalid: spec: Invalid value: ${RuleMessages.minReplicasLeMax}`,
    },
    {
      what: 'a missing required field (CEL rules skipped)',
      body: () => {
        const body = exporterSet('words-required');
        delete body.spec.virtualTargetClassName;
        return body;
      },
      message: `ExporterSet.${GROUP} "words-required" is invalid: [spec.virtualTargetClassName: Required value, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`,
    },
  ])("words the 422 of $what in kube-apiserver's words", async ({ body, message }) => {
    const result = await rejection(create(body()));
    expect([result.code, result.status.reason]).toEqual([422, 'Invalid']);
    expect(result.status.message).toBe(message);
  });
});
