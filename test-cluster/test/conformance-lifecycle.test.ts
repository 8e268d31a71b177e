/**
 * Conformance of deletion, through @kubernetes/client-node: finalizers hold an object with a
 * deletionTimestamp until the last one is removed, and ownerReferences make dependents follow their
 * owner (background cascade, as kube-controller-manager's garbage collector does) unless orphaned.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { JUMPSTARTER_API_VERSION, Kinds } from 'virtual-exporters/internal';
import {
  BACKGROUND_MS,
  clientsFor,
  eventually,
  exporters,
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

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('lifecycle › finalizers', () => {
  it('a delete marks an object with finalizers, and removing the last finalizer removes it', async () => {
    await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: {
        ...exporterSet('held'),
        metadata: { name: 'held', finalizers: ['example.com/a', 'example.com/b'] },
      },
    });
    const at = { ...exporterSets, namespace: 'default', name: 'held' };
    await api.custom.deleteNamespacedCustomObject(at);

    const marked = await api.custom.getNamespacedCustomObject(at);
    expect(marked.metadata.deletionTimestamp).toBeTruthy();
    expect(marked.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);

    await api.custom.patchNamespacedCustomObject(
      { ...at, body: { metadata: { finalizers: ['example.com/b'] } } },
      merge,
    );
    expect((await api.custom.getNamespacedCustomObject(at)).metadata.deletionTimestamp).toBeTruthy();

    await api.custom.patchNamespacedCustomObject({ ...at, body: { metadata: { finalizers: null } } }, merge);
    await eventually(async () =>
      expect((await rejection(api.custom.getNamespacedCustomObject(at))).code).toBe(404),
    );
  });
});

describe('lifecycle › garbage collection', () => {
  const createExporter = (name: string) =>
    api.custom.createNamespacedCustomObject({
      ...exporters,
      namespace: 'default',
      body: { apiVersion: JUMPSTARTER_API_VERSION, kind: Kinds.Exporter, metadata: { name }, spec: {} },
    });
  const ownedBy = (owner: { metadata: { name: string; uid: string } }) => [
    {
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: Kinds.Exporter,
      name: owner.metadata.name,
      uid: owner.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];

  it('deleting an Exporter deletes the Pod and Secret it owns', async () => {
    const owner = await createExporter('owner');
    await api.core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'owner-pod', ownerReferences: ownedBy(owner) },
        spec: { containers: [{ name: 'exporter', image: 'example/exporter' }] },
      },
    });
    await api.core.createNamespacedSecret({
      namespace: 'default',
      body: {
        metadata: { name: 'owner-exporter', ownerReferences: ownedBy(owner) },
        stringData: { token: 't' },
      },
    });

    await api.custom.deleteNamespacedCustomObject({ ...exporters, namespace: 'default', name: 'owner' });
    await eventually(async () => {
      expect(
        (await rejection(api.core.readNamespacedPod({ name: 'owner-pod', namespace: 'default' }))).code,
      ).toBe(404);
      expect(
        (await rejection(api.core.readNamespacedSecret({ name: 'owner-exporter', namespace: 'default' })))
          .code,
      ).toBe(404);
    }, BACKGROUND_MS);
  });

  it('an orphaning delete leaves the dependents', async () => {
    const owner = await createExporter('orphaner');
    await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'orphan', ownerReferences: ownedBy(owner) } },
    });
    await api.custom.deleteNamespacedCustomObject({
      ...exporters,
      namespace: 'default',
      name: 'orphaner',
      propagationPolicy: 'Orphan',
    });
    await eventually(
      async () =>
        expect(
          (
            await rejection(
              api.custom.getNamespacedCustomObject({ ...exporters, namespace: 'default', name: 'orphaner' }),
            )
          ).code,
        ).toBe(404),
      BACKGROUND_MS,
    );
    const orphan = await api.core.readNamespacedConfigMap({ name: 'orphan', namespace: 'default' });
    expect(orphan.metadata?.name).toBe('orphan');
    expect(orphan.metadata?.ownerReferences).toBeUndefined();
  });
});

describe('lifecycle › delete options', () => {
  it('refuses a delete whose preconditions fail with 409 naming the kind', async () => {
    const cm = await api.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'guarded' } },
    });
    const set = await api.custom.createNamespacedCustomObject({
      ...exporterSets,
      namespace: 'default',
      body: exporterSet('guarded'),
    });
    const staleRv = await rejection(
      api.custom.deleteNamespacedCustomObject({
        ...exporterSets,
        namespace: 'default',
        name: 'guarded',
        body: { preconditions: { resourceVersion: '1' } },
      }),
    );
    expect(staleRv.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ExporterSet.${exporterSets.group} "guarded": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${set.metadata.resourceVersion}). The object might have been modified`,
      details: { name: 'guarded', group: exporterSets.group, kind: 'ExporterSet' },
    });
    const otherUid = await rejection(
      api.core.deleteNamespacedConfigMap({
        namespace: 'default',
        name: 'guarded',
        body: { preconditions: { uid: 'someone-else' } },
      }),
    );
    expect(otherUid.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "guarded": the UID in the precondition (someone-else) does not match the UID in record (${cm.metadata!.uid}). The object might have been deleted and then recreated`,
      details: { name: 'guarded', kind: 'ConfigMap' },
    });
  });

  it('refuses a delete guarded by the resourceVersion read before a /status write (409); the new one deletes', async () => {
    // The controller deletes an instance only as it decided on it: a lease assigned since writes the
    // Exporter's status.leaseRef, which moves the resourceVersion of the whole object.
    const at = { ...exporters, namespace: 'default', name: 'guarded-status' };
    const read = await api.custom.createNamespacedCustomObject({
      ...exporters,
      namespace: 'default',
      body: {
        apiVersion: JUMPSTARTER_API_VERSION,
        kind: Kinds.Exporter,
        metadata: { name: at.name },
        spec: {},
      },
    });
    const written = await api.custom.patchNamespacedCustomObjectStatus(
      { ...at, body: { status: { leaseRef: { name: 'late' } } } },
      merge,
    );
    expect(written.metadata.resourceVersion).not.toBe(read.metadata.resourceVersion);
    const stale = await rejection(
      api.custom.deleteNamespacedCustomObject({
        ...at,
        body: { preconditions: { uid: read.metadata.uid, resourceVersion: read.metadata.resourceVersion } },
      }),
    );
    expect(stale.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Exporter.${exporters.group} "${at.name}": the ResourceVersion in the precondition (${read.metadata.resourceVersion}) does not match the ResourceVersion in record (${written.metadata.resourceVersion}). The object might have been modified`,
    });
    expect((await api.custom.getNamespacedCustomObject(at)).status.leaseRef).toEqual({ name: 'late' });
    await api.custom.deleteNamespacedCustomObject({
      ...at,
      body: { preconditions: { uid: read.metadata.uid, resourceVersion: written.metadata.resourceVersion } },
    });
    await eventually(async () =>
      expect((await rejection(api.custom.getNamespacedCustomObject(at))).code).toBe(404),
    );
  });

  it('refuses invalid DeleteOptions with 422 before looking for the object', async () => {
    const unsupported = await rejection(
      api.core.deleteNamespacedConfigMap({
        namespace: 'default',
        name: 'absent',
        propagationPolicy: 'Sideways',
      }),
    );
    expect(unsupported.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message:
              'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
            field: 'propagationPolicy',
          },
        ],
      },
    });
    const both = await rejection(
      api.core.deleteNamespacedConfigMap({
        namespace: 'default',
        name: 'absent',
        body: { orphanDependents: true, propagationPolicy: 'Background' },
      }),
    );
    expect(both.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
    });
  });
});
