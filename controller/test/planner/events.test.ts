import { describe, expect, it } from '@jest/globals';
import type { Condition } from 'virtual-exporters/internal';
import { actionEvents, conditionEvents, plan } from '../../src/planner';
import { instance, makeSet, snapshot } from './builders';

const cond = (type: string, status: 'True' | 'False', reason = 'R'): Condition => ({
  type,
  status,
  reason,
  message: 'm',
  lastTransitionTime: '2026-03-01T12:00:00Z',
});

describe('events', () => {
  it('describe each kind of scale action once, with its reason', () => {
    const result = plan(snapshot({ set: makeSet({ minReplicas: 2 }), instances: [instance(0, 'exited')] }));
    expect(actionEvents(result.actions)).toEqual([
      {
        type: 'Normal',
        reason: 'ScaledUp',
        message: 'created 2 instances pool-1, pool-2 to keep minReplicas',
      },
      {
        type: 'Normal',
        reason: 'InstanceRecycled',
        message: 'deleted instance pool-0 after its lease (ExitAndReplace)',
      },
    ]);
  });

  it('report a condition change as a Warning when it turns unhealthy and Normal when it recovers', () => {
    expect(conditionEvents([cond('Degraded', 'False')], [cond('Degraded', 'True', 'X')])).toEqual([
      { type: 'Warning', reason: 'X', message: 'Degraded is True: m' },
    ]);
    expect(conditionEvents([cond('Degraded', 'True')], [cond('Degraded', 'False', 'Y')])).toEqual([
      { type: 'Normal', reason: 'Y', message: 'Degraded is False: m' },
    ]);
  });

  it('stay quiet for unchanged conditions, healthy new ones, Progressing and buffer dips', () => {
    expect(conditionEvents([cond('Degraded', 'True')], [cond('Degraded', 'True', 'Z')])).toEqual([]);
    expect(conditionEvents(undefined, [cond('Degraded', 'False'), cond('Progressing', 'True')])).toEqual([]);
    expect(
      conditionEvents([cond('Available', 'True')], [cond('Available', 'False', 'BelowMinimumAvailable')]),
    ).toEqual([]);
    expect(
      conditionEvents(
        [cond('Available', 'True')],
        [cond('Available', 'False', 'VirtualTargetClassNotFound')],
      ),
    ).toHaveLength(1);
  });
});
