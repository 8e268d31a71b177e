/**
 * Conformance of the status and scale subresources and of `metadata.generation`, through
 * @kubernetes/client-node: a controller writes status through /status and compares
 * `observedGeneration` with `generation`, so main writes must not touch status, status writes must
 * not touch spec, and only spec changes may bump the generation.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import {
  clientsFor,
  exporterSet,
  exporterSets,
  onBackend,
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

const at = (name: string) => ({ ...exporterSets, namespace: 'default', name });
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** A status that satisfies the schema's required counters. */
const status = (replicas: number) => ({
  replicas,
  availableReplicas: 0,
  exportersActive: 0,
  exportersDisabled: 0,
  exportersIdle: 0,
  exportersOffline: 0,
  leasedReplicas: 0,
  podsFailed: 0,
  podsPending: 0,
  podsRunning: 0,
  podsUnknown: 0,
  readyReplicas: 0,
  unavailableReplicas: 0,
});

describe('subresources › status', () => {
  it('ignores status on create and on writes to the main resource', async () => {
    const created = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: { ...exporterSet('iso-main'), status: status(7) },
    });
    expect(created.status).toBeUndefined();
    const replaced = await api.custom.replaceNamespacedCustomObject({
      ...at('iso-main'),
      body: { ...created, spec: { ...created.spec, minReplicas: 1 }, status: status(7) },
    });
    expect(replaced.spec.minReplicas).toBe(1);
    expect(replaced.status).toBeUndefined();
  });

  it('status writes change status only, and keep spec as stored', async () => {
    const created = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('iso-status', { minReplicas: 1 }),
    });
    const written = await api.custom.replaceNamespacedCustomObjectStatus({
      ...at('iso-status'),
      body: { ...created, spec: { ...created.spec, minReplicas: 3 }, status: status(2) },
    });
    expect(written.status.replicas).toBe(2);
    expect(written.spec.minReplicas).toBe(1);

    const patched = await api.custom.patchNamespacedCustomObjectStatus(
      { ...at('iso-status'), body: { spec: { minReplicas: 4 }, status: { replicas: 5 } } },
      merge,
    );
    expect(patched.status.replicas).toBe(5);
    expect(patched.spec.minReplicas).toBe(1);
    expect((await api.custom.getNamespacedCustomObjectStatus(at('iso-status'))).status.replicas).toBe(5);
  });
});

describe('subresources › generation', () => {
  it('bumps the generation on spec changes only', async () => {
    const created = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('gen'),
    });
    expect(created.metadata.generation).toBe(1);
    const labelled = await api.custom.patchNamespacedCustomObject(
      { ...at('gen'), body: { metadata: { labels: { touched: 'yes' } } } },
      merge,
    );
    expect(labelled.metadata.generation).toBe(1);
    const withStatus = await api.custom.patchNamespacedCustomObjectStatus(
      { ...at('gen'), body: { status: status(1) } },
      merge,
    );
    expect(withStatus.metadata.generation).toBe(1);
    const respec = await api.custom.patchNamespacedCustomObject(
      { ...at('gen'), body: { spec: { minReplicas: 2 } } },
      merge,
    );
    expect(respec.metadata.generation).toBe(2);
    const same = await api.custom.patchNamespacedCustomObject(
      { ...at('gen'), body: { spec: { minReplicas: 2 } } },
      merge,
    );
    expect(same.metadata.generation).toBe(2);
  });
});

describe('subresources › scale', () => {
  it('reads spec and status replicas through /scale and writes the spec path', async () => {
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('scaled', { maxReplicas: 3 }),
    });
    await api.custom.patchNamespacedCustomObjectStatus(
      { ...at('scaled'), body: { status: { ...status(2), selector: 'pool=scaled' } } },
      merge,
    );
    const scale = await api.custom.getNamespacedCustomObjectScale(at('scaled'));
    expect(scale).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'scaled', namespace: 'default' },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'pool=scaled' },
    });

    const replaced = await api.custom.replaceNamespacedCustomObjectScale({
      ...at('scaled'),
      body: { ...scale, spec: { replicas: 6 } },
    });
    expect(replaced.spec.replicas).toBe(6);
    const set = await api.custom.getNamespacedCustomObject(at('scaled'));
    expect(set.spec.maxReplicas).toBe(6);
    expect(set.metadata.generation).toBe(2);
  });
});

describe('subresources › known differences', () => {
  it('refuses a negative scale for the object on kube, for the Scale here (both 422)', async () => {
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('scaled-below', { maxReplicas: 3 }),
    });
    const refused = await rejection(
      api.custom.replaceNamespacedCustomObjectScale({
        ...at('scaled-below'),
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'scaled-below', namespace: 'default' },
          spec: { replicas: -1 },
        },
      }),
    );
    expect([refused.code, refused.status.reason]).toEqual([422, 'Invalid']);
    expect(refused.status.message).toMatch(
      onBackend({
        kube: /^ExporterSet\.virtualtarget\.jumpstarter\.dev "scaled-below" is invalid: \[spec\.maxReplicas: Invalid value: -1: spec\.maxReplicas in body should be greater than or equal to 0, /,
        test: /^Scale\.autoscaling "scaled-below" is invalid: spec\.replicas: Invalid value: -1: must be an integer greater than or equal to 0$/,
      }),
    );
    expect((await api.custom.getNamespacedCustomObject(at('scaled-below'))).spec.maxReplicas).toBe(3);
  });
});
