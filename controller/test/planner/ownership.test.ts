import { describe, expect, it } from '@jest/globals';
import { plan } from '../../src/planner';
import { at, instance, makeSet, namesOf, ofType, snapshot } from './builders';

const due = { scaleDownWindowStart: at(-600_000), scaleDownTarget: 0 };

describe('§3.11 ownership › disabled by hand', () => {
  it('is kept: not a scale-down victim and not deleted', () => {
    const set = makeSet({}, { status: due });
    const result = plan(
      snapshot({ set, instances: [instance(0, 'available', { enabled: false }), instance(1, 'standby')] }),
    );
    expect(result.actions).toEqual([]);
  });

  it('is not counted as available; the buffer is refilled around it', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'available', { enabled: false })],
      }),
    );
    expect(result.status).toMatchObject({ availableReplicas: 0, exportersDisabled: 1, replicas: 1 });
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });

  it('counts as by hand when the manually-disabled annotation is set, even over our marker', () => {
    const result = plan(
      snapshot({
        set: makeSet({}, { status: due }),
        instances: [
          instance(0, 'available', { enabled: false, retiring: 'scale-down', manuallyDisabled: true }),
        ],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('is available again once re-enabled', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'available', { enabled: true })],
      }),
    );
    expect(result.status?.availableReplicas).toBe(1);
    expect(result.actions).toEqual([]);
  });

  it('keeps its Pod and config Secret in sync (a re-enabled instance works at once)', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'available', { enabled: false, desiredConfigData: { 'config.yaml': 'bmV3' } }),
          instance(1, 'standby'),
        ],
      }),
    );
    expect(namesOf(result, 'SyncConfigSecret')).toEqual(['pool-0']);
  });
});

describe('§3.11 ownership › detached', () => {
  it('is ignored (never touched) and replaced', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'available', { detached: true })],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
    expect(result.actions.every((a) => !('name' in a) || a.name !== 'pool-0')).toBe(true);
    expect(result.status?.replicas).toBe(0);
  });

  it('matches the owner by uid: an Exporter of an earlier set of the same name is detached', () => {
    const old = instance(0, 'available');
    const exporter = {
      ...old.exporter,
      metadata: {
        ...old.exporter.metadata,
        ownerReferences: [
          { apiVersion: 'x', kind: 'ExporterSet', name: 'pool', uid: 'uid-older', controller: true },
        ],
      },
    };
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [{ ...old, exporter }] }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });
});

describe('§3.11 ownership › in-flight deletes', () => {
  it('are never deleted twice', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'standby'),
          instance(1, 'available', { enabled: false, retiring: 'scale-down' }),
        ],
        inFlight: { deleting: ['pool-1'] },
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });
});

describe('config Secret', () => {
  it('is re-synced when the rendered data differs (token rotated)', () => {
    const result = plan(
      snapshot({
        instances: [
          instance(0, 'available', {
            configData: { 'config.yaml': 'b2xk' },
            desiredConfigData: { 'config.yaml': 'bmV3' },
          }),
        ],
      }),
    );
    expect(namesOf(result, 'SyncConfigSecret')).toEqual(['pool-0']);
  });

  it('is recreated when missing under a live Pod', () => {
    const result = plan(snapshot({ instances: [instance(0, 'starting', { noConfigSecret: true })] }));
    expect(namesOf(result, 'SyncConfigSecret')).toEqual(['pool-0']);
  });

  it('is never written for an instance realised off-cluster (no Pod, its config lives on its host)', () => {
    const { pod: _pod, configSecret: _secret, ...realised } = instance(0, 'available');
    const result = plan(snapshot({ instances: [{ ...realised, observation: { state: 'running' } }] }));
    expect(result.status?.availableReplicas).toBe(1);
    expect(namesOf(result, 'SyncConfigSecret')).toEqual([]);
    expect(result.actions).toEqual([]);
  });

  it('is left alone when it matches', () => {
    const data = { 'config.yaml': 'c2FtZQ==' };
    const result = plan(
      snapshot({
        instances: [instance(0, 'available', { configData: data, desiredConfigData: { ...data } })],
      }),
    );
    expect(result.actions).toEqual([]);
  });
});
