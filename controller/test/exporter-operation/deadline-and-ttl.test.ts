/** The ExporterOperation planner: activeDeadlineSeconds and ttlSecondsAfterFinished. */
import { describe, expect, it } from '@jest/globals';
import { planOperation } from '../../src/exporter-operation/planner';
import { at } from '../planner/builders';
import { idle, operation, summary, world } from './builders';

describe('ExporterOperation planner: deadline and TTL', () => {
  const waitingOp = (now: number) =>
    planOperation(
      world(
        operation(
          { operation: 'Drain', exporterName: 'pool-0', activeDeadlineSeconds: 60 },
          { state: 'InProgress', startTime: at(0) },
        ),
        {
          exporter: idle,
          leasedBy: 'l-1',
          now,
        },
      ),
    );

  it('looks again when the deadline falls due', () => {
    expect(waitingOp(20_000).requeueAfterMs).toBe(40_000);
    expect(waitingOp(20_000).status?.state).toBe('InProgress');
  });

  it('fails at the deadline, saying what it waited for, and does nothing more', () => {
    const result = waitingOp(60_000);
    expect(summary(result)).toEqual({ state: 'Failed', reason: 'DeadlineExceeded', actions: [] });
    expect(result.status?.message).toBe(
      'activeDeadlineSeconds (60 s) passed before the operation finished: instance pool-0 is leased (Lease l-1); Drain waits for the lease to end; nothing more is done',
    );
    expect(result.status?.completionTime).toBe(at(60_000));
    expect(result.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'DeadlineExceeded',
    });
  });

  it('fails the instances not finished by the deadline with the operation', () => {
    expect(waitingOp(60_000).status?.instances).toEqual([
      {
        exporterName: 'pool-0',
        uid: 'uid-pool-0',
        state: 'Failed',
        reason: 'DeadlineExceeded',
        message: 'instance pool-0 is leased (Lease l-1); Drain waits for the lease to end',
      },
    ]);
  });

  it('counts the deadline from the first pass', () => {
    const result = planOperation(
      world(operation({ operation: 'Recycle', exporterName: 'pool-0', activeDeadlineSeconds: 5 }), {
        exporter: idle,
        leasedBy: 'l-1',
        now: 99_000,
      }),
    );
    expect(result.status).toMatchObject({ state: 'InProgress', startTime: at(99_000) });
  });

  const finished = (ttl: number | undefined, now: number) =>
    planOperation(
      world(
        operation(
          {
            operation: 'Disable',
            exporterName: 'pool-0',
            ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
          },
          { state: 'Complete', startTime: at(0), completionTime: at(10_000) },
        ),
        { exporter: idle, now },
      ),
    );

  it.each([
    ['waits for the TTL', 30, 20_000, { actions: [], events: [], requeueAfterMs: 20_000 }],
    [
      'deletes the operation when its TTL passed',
      30,
      40_000,
      { actions: [{ type: 'DeleteOperation', uid: 'uid-op' }], events: [] },
    ],
    [
      'deletes at once with a TTL of 0',
      0,
      10_000,
      { actions: [{ type: 'DeleteOperation', uid: 'uid-op' }], events: [] },
    ],
    ['keeps a finished operation without a TTL, untouched', undefined, 1e9, { actions: [], events: [] }],
  ])('a finished operation %s', (_what, ttl, now, expected) => {
    expect(finished(ttl, now)).toEqual(expected);
  });
});
