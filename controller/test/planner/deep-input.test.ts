/**
 * §3.19 bounds: parameters or a driver config nested as deep as a real API server admits (10,000)
 * never crash the planner; the set is reported and existing instances keep serving.
 */
import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import {
  conditionOf,
  instance,
  lease,
  makeClass,
  makeSet,
  nested,
  ofType,
  revisionOf,
  snapshot,
} from './builders';

const TOO_DEEP = 'is nested more than 128 levels deep';

describe('§3.19 deep input', () => {
  it.each([1_000, 5_000, 10_000])(
    'set parameters %i levels deep: SpecValid=False/InvalidSpec and ParametersValid=False, nothing created or removed',
    (levels) => {
      const revision = revisionOf();
      const set = makeSet(
        { minAvailableReplicas: 3, parameters: nested(levels) },
        { status: { templateRevision: revision } },
      );
      const result = plan(snapshot({ set, instances: [instance(0, 'available')], leases: [lease('l')] }));
      expect(conditionOf(result, ConditionTypes.SpecValid)).toMatchObject({
        status: 'False',
        reason: ConditionReasons.InvalidSpec,
        message: expect.stringContaining(`spec.parameters: ${TOO_DEEP}`),
      });
      expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
        status: 'False',
        message: expect.stringContaining(`spec.parameters: ${TOO_DEEP}`),
      });
      // The revision cannot be computed: the last one stays, so the instance is not outdated.
      expect(result.status?.templateRevision).toBe(revision);
      for (const type of ['CreateExporter', 'PromoteStandby', 'DisableExporter', 'DeleteExporter'] as const) {
        expect(ofType(result, type)).toEqual([]);
      }
    },
  );

  it.each([1_000, 10_000])(
    'class parameters %i levels deep: ParametersValid=False naming the class',
    (levels) => {
      const result = plan(
        snapshot({
          cls: makeClass({ parameters: nested(levels) }),
          set: makeSet({ minAvailableReplicas: 2 }),
        }),
      );
      expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
        status: 'False',
        reason: ConditionReasons.InvalidParameters,
        message: expect.stringContaining(`VirtualTargetClass "qemu-rpi4" spec.parameters: ${TOO_DEEP}`),
      });
      expect(ofType(result, 'CreateExporter')).toEqual([]);
    },
  );

  it('a driver config 10,000 levels deep: SpecValid=False naming the driver', () => {
    const plain = makeSet({ minAvailableReplicas: 2 });
    const template = {
      ...plain.spec!.template!,
      spec: { drivers: [{ name: 'deep', type: 'example.Driver', config: nested(10_000) }] },
    };
    const set = makeSet({ minAvailableReplicas: 2, template });
    const result = plan(snapshot({ set }));
    expect(conditionOf(result, ConditionTypes.SpecValid)?.message).toContain(
      `spec.template.spec.drivers[0].config: ${TOO_DEEP}`,
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });
});
