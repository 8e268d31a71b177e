import { describe, expect, it } from '@jest/globals';
import { Annotations } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.8 recycle › ExitAndReplace', () => {
  it('deletes an instance whose exporter exited after its lease, and refills the buffer', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'exited')],
        leases: [lease('done', { exporter: 'pool-0', ended: true })],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([
      { type: 'DeleteExporter', name: 'pool-0', reason: 'recycle' },
    ]);
    expect(ofType(result, 'CreateExporter').map((c) => [c.name, c.standby, c.reason])).toEqual([
      ['pool-1', false, 'warm-buffer'],
    ]);
  });

  it('waits while the lease has not ended in the cache', () => {
    const result = plan(
      snapshot({ instances: [instance(0, 'exited')], leases: [lease('live', { exporter: 'pool-0' })] }),
    );
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
  });

  it('replaces a failed instance, disabling it first while its crashed exporter still looks online', () => {
    const crashed = instance(0, 'crashed');
    const stillOnline = {
      ...crashed,
      exporter: {
        ...crashed.exporter,
        status: {
          ...crashed.exporter.status,
          conditions: [
            {
              type: 'Registered',
              status: 'True' as const,
              reason: 'Registered',
              message: '',
              lastTransitionTime: '2026-03-01T11:00:00Z',
            },
            {
              type: 'Online',
              status: 'True' as const,
              reason: 'Seen',
              message: '',
              lastTransitionTime: '2026-03-01T11:00:00Z',
            },
          ],
        },
      },
    };
    const result = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }), instances: [stillOnline] }));
    expect(ofType(result, 'DisableExporter').map((a) => [a.name, a.reason])).toEqual([['pool-0', 'failed']]);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
  });

  describe('reclaimPolicy Retain', () => {
    const cls = makeClass({ reclaimPolicy: 'Retain' });

    it('releases an instance that served a lease instead of deleting it', () => {
      const result = plan(
        snapshot({
          cls,
          instances: [instance(0, 'exited')],
          leases: [lease('done', { exporter: 'pool-0', ended: true })],
        }),
      );
      const [release] = ofType(result, 'ReleaseExporter');
      expect(release).toMatchObject({ name: 'pool-0', reason: 'recycle' });
      expect(release.patch).toEqual({
        metadata: { annotations: { [Annotations.retained]: expect.any(String) }, ownerReferences: [] },
        spec: { enabled: false },
      });
      expect(ofType(result, 'DeleteExporter')).toEqual([]);
    });

    it('still deletes an instance that never served a lease', () => {
      const result = plan(snapshot({ cls, instances: [instance(0, 'failed')] }));
      expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
    });
  });
});

describe('§3.8 recycle › InPlaceReuse', () => {
  const set = makeSet({ recycleStrategy: 'InPlaceReuse', minAvailableReplicas: 1 });

  it('leaves an instance whose lease ended alone: it is available again in the same Pod', () => {
    const result = plan(
      snapshot({
        set,
        instances: [instance(0, 'available')],
        leases: [lease('done', { exporter: 'pool-0', ended: true })],
      }),
    );
    expect(result.actions).toEqual([]);
    expect(result.status?.availableReplicas).toBe(1);
  });

  it('deletes a failed Pod, keeps the Exporter, and counts it as future supply', () => {
    const result = plan(snapshot({ set, instances: [instance(0, 'crashed')] }));
    expect(ofType(result, 'DeletePod')).toEqual([
      { type: 'DeletePod', name: 'pool-0', podUid: 'pod-pool-0', reason: 'failed' },
    ]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('renders the Pod again once the failed one is gone', () => {
    const crashed = instance(0, 'crashed');
    const { pod: _gone, configSecret: _secret, ...withoutPod } = crashed;
    const result = plan(snapshot({ set, instances: [withoutPod] }));
    expect(namesOf(result, 'RenderInstance')).toEqual(['pool-0']);
  });

  it('does not delete the Pod twice while the delete is in flight', () => {
    const result = plan(
      snapshot({ set, instances: [instance(0, 'crashed')], inFlight: { deletingPods: ['pool-0'] } }),
    );
    expect(result.actions).toEqual([]);
  });

  it('leaves the failed Pod of a leased instance alone until the lease ends', () => {
    const leased = plan(
      snapshot({ set, instances: [instance(0, 'crashed')], leases: [lease('l', { exporter: 'pool-0' })] }),
    );
    expect(ofType(leased, 'DeletePod')).toEqual([]);
    expect(ofType(leased, 'DisableExporter')).toEqual([]);
    const released = plan(
      snapshot({
        set,
        instances: [instance(0, 'crashed')],
        leases: [lease('l', { exporter: 'pool-0', ended: true })],
      }),
    );
    expect(namesOf(released, 'DeletePod')).toEqual(['pool-0']);
  });
});
