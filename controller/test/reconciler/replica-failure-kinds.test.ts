/**
 * A pass whose writes fail in several ways reports every kind: the ReplicaFailure reason is the first
 * failure's, and its message names the others, so a write refused on every pass (an RBAC 403 on
 * deletes, say) is never hidden behind another that fails first (a 422 on a config Secret).
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons as R } from 'virtual-exporters/internal';
import { replicaFailureOf } from '../../src/reconciler/execution-record';

describe('ReplicaFailure of several kinds of failed write', () => {
  it('is the one failure as it is when only one kind failed', () => {
    expect(replicaFailureOf(new Map([[R.FailedDelete, 'forbidden']]))).toEqual({
      reason: R.FailedDelete,
      message: 'forbidden',
    });
    expect(replicaFailureOf(new Map())).toBeUndefined();
  });

  it('names every other kind after the first, with its message', () => {
    const failure = replicaFailureOf(
      new Map([
        [R.FailedCreateSecret, 'instance a-0: secrets is invalid: data: Too long'],
        [R.FailedDelete, 'exporters "a-1" is forbidden'],
        [R.FailedCreatePod, 'instance a-2: pods is forbidden'],
      ]),
    );
    expect(failure).toEqual({
      reason: R.FailedCreateSecret,
      message:
        'instance a-0: secrets is invalid: data: Too long (also FailedDelete: exporters "a-1" is forbidden; ' +
        'FailedCreatePod: instance a-2: pods is forbidden)',
    });
  });

  it('keeps the other kinds in the message however long the first message is', () => {
    const failure = replicaFailureOf(
      new Map([
        [R.FailedPatch, 'x'.repeat(5_000)],
        [R.FailedDelete, `forbidden ${'y'.repeat(5_000)}`],
      ]),
    )!;
    expect(failure.message.length).toBeLessThanOrEqual(1024);
    expect(failure.message).toContain('(also FailedDelete: forbidden yyy');
  });
});
