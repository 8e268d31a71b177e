/**
 * A pass never plans from a cached operation older than the controller's own last status write
 * (operation-reconciler.ts): the simulation under load saw a finished operation's final state
 * overwritten by a pass that read the older copy (`operation-reopened`).
 */
import { describe, expect, it } from '@jest/globals';
import type { ExporterOperation } from 'virtual-exporters/internal';
import {
  OperationReconciler,
  type OperationReconcilerDeps,
} from '../../src/exporter-operation/reconciler/operation-reconciler';
import { NS, QEMU, operation } from './builders';

/** Caches holding one operation (whatever `cached` is now) and nothing else. */
function harness() {
  const op = operation({ operation: 'Recycle', exporterName: 'gone-0' });
  let cached: ExporterOperation = { ...op, metadata: { ...op.metadata, resourceVersion: '3' } };
  const writes: unknown[] = [];
  const none = { get: () => undefined, list: () => [] };
  const deps = {
    caches: {
      exporterOperations: { get: () => cached, list: () => [cached] },
      exporterSets: none,
      virtualTargetClasses: none,
      exporters: none,
      leases: none,
    },
    clients: {
      exporters: {},
      exporterOperations: {
        patchStatus: async (_ns: string, _name: string, patch: { body: { status: object } }) => {
          writes.push(patch.body.status);
          return { ...cached, metadata: { ...cached.metadata, resourceVersion: String(7 + writes.length) } };
        },
      },
    },
    provisioner: QEMU,
    clock: { now: () => Date.UTC(2026, 0, 1) },
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    events: { record: async () => undefined },
  } as unknown as OperationReconcilerDeps;
  return {
    reconciler: new OperationReconciler(deps),
    writes,
    key: `${NS}/${op.metadata!.name}`,
    setCached: (next: ExporterOperation) => (cached = next),
    cached: () => cached,
  };
}

describe('an ExporterOperation pass and the cache behind its own write', () => {
  it('waits for the cache to show its status write instead of planning again from the older copy', async () => {
    const h = harness();
    await h.reconciler.reconcile(h.key);
    expect(h.writes).toHaveLength(1);
    expect(h.writes[0]).toMatchObject({ state: 'Failed' });

    // The cache still shows resourceVersion 3, without the final state: no second write.
    const waiting = await h.reconciler.reconcile(h.key);
    expect(h.writes).toHaveLength(1);
    expect(waiting.requeueAfterMs).toBeGreaterThan(0);

    // The cache caught up (the write left resourceVersion 8): the pass plans from it, and writes nothing new.
    const stale = h.cached();
    h.setCached({
      ...stale,
      metadata: { ...stale.metadata, resourceVersion: '8' },
      status: h.writes[0] as ExporterOperation['status'],
    });
    await h.reconciler.reconcile(h.key);
    expect(h.writes).toHaveLength(1);
  });
});
