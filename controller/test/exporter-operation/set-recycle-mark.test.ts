/** The ExporterSet planner's side of a Recycle operation: a marked instance is replaced as in a rollout. */
import { describe, expect, it } from '@jest/globals';
import { Annotations, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { conditionOf, instance, makeSet, ofType, revisionOf, snapshot } from '../planner/builders';

describe('the set planner and a Recycle mark', () => {
  it('replaces a marked idle instance as in a rollout: a replacement first, nothing removed yet', () => {
    const pool = [instance(0, 'available'), instance(1, 'available')];
    const markedOne = {
      ...pool[0],
      exporter: {
        ...pool[0].exporter,
        metadata: {
          ...pool[0].exporter.metadata,
          annotations: { ...pool[0].exporter.metadata.annotations, [Annotations.recycleRequested]: 'op' },
        },
      },
    };
    const unmarked = plan(snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: pool }));
    expect(ofType(unmarked, 'CreateExporter')).toEqual([]);
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 2 }), instances: [markedOne, pool[1]] }),
    );
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(result.status?.updatedReplicas).toBe(1);
    expect(conditionOf(result, ConditionTypes.Scaling)).toMatchObject({
      reason: 'RollingOut',
      message: `1 instance of 2 still to replace with revision ${revisionOf()} (built from another revision, or marked by a Recycle operation)`,
    });
  });
});
