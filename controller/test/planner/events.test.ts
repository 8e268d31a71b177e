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
    expect(
      conditionEvents([cond('InstancesHealthy', 'True')], [cond('InstancesHealthy', 'False', 'X')]),
    ).toEqual([{ type: 'Warning', reason: 'X', message: 'InstancesHealthy is False: m' }]);
    expect(
      conditionEvents([cond('InstancesHealthy', 'False')], [cond('InstancesHealthy', 'True', 'Y')]),
    ).toEqual([{ type: 'Normal', reason: 'Y', message: 'InstancesHealthy is True: m' }]);
    expect(conditionEvents([cond('SpecValid', 'True')], [cond('SpecValid', 'False', 'InvalidSpec')])).toEqual(
      [{ type: 'Warning', reason: 'InvalidSpec', message: 'SpecValid is False: m' }],
    );
    expect(
      conditionEvents([cond('ScalingLimited', 'False')], [cond('ScalingLimited', 'True', 'AtMaxReplicas')]),
    ).toEqual([{ type: 'Warning', reason: 'AtMaxReplicas', message: 'ScalingLimited is True: m' }]);
  });

  it("stay quiet for unchanged conditions, healthy new ones, and what changes in a pool's normal life", () => {
    expect(
      conditionEvents([cond('InstancesHealthy', 'False')], [cond('InstancesHealthy', 'False', 'Z')]),
    ).toEqual([]);
    expect(conditionEvents(undefined, [cond('InstancesHealthy', 'True'), cond('SpecValid', 'True')])).toEqual(
      [],
    );
    // Upstream's Progressing and Degraded follow every boot; Scaling every scale action.
    expect(
      conditionEvents([cond('Degraded', 'False')], [cond('Degraded', 'True', 'ExportersOffline')]),
    ).toEqual([]);
    expect(conditionEvents(undefined, [cond('Progressing', 'True'), cond('Scaling', 'True')])).toEqual([]);
    // Buffer and floor dips as leases take instances.
    expect(
      conditionEvents(
        [cond('WarmBufferAvailable', 'True')],
        [cond('WarmBufferAvailable', 'False', 'BelowMinimumAvailable')],
      ),
    ).toEqual([]);
    expect(
      conditionEvents(
        [cond('Available', 'True')],
        [cond('Available', 'False', 'MinimumReplicasUnavailable')],
      ),
    ).toEqual([]);
    expect(
      conditionEvents(
        [cond('Available', 'True')],
        [cond('Available', 'False', 'VirtualTargetClassNotFound')],
      ),
    ).toHaveLength(1);
  });
});
