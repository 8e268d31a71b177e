/**
 * §3.19 on the test cluster: parameters nested as deep as a real API server admits reach the
 * controller through the API (list and watch). The set that gets them is reported (SpecValid and
 * ParametersValid name the field and the limit), its existing instance keeps serving, a class with
 * deep parameters is reported on the set that uses it, and the controller never crashes. The cluster
 * runs Strict field validation for every request, so none of the controller's writes carries a field
 * the API server does not know.
 */
import { describe, expect, it } from '@jest/globals';
import { nested } from '../planner/builders';
import {
  CONTROLLER,
  condition,
  createClass,
  createSet,
  getSet,
  instancesOf,
  patchSetSpec,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

const TOO_DEEP = 'is nested more than 128 levels deep';

describe('deep input on the test cluster', () => {
  it('a set whose parameters become 9,000 levels deep is reported and keeps its instance; a deep class too; no Strict refusal', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 50, fieldValidation: 'Strict' });
    let stopped = false;
    void manager.done.then(() => (stopped = true));

    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('the pool serving', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    const before = instancesOf(cluster, 'pool').map((e) => e.metadata?.name);

    patchSetSpec(cluster, 'pool', { parameters: nested(9_000) });
    createClass(cluster, 'deep-class', { parameters: nested(9_000) });
    createSet(cluster, 'on-deep-class', {
      virtualTargetClassName: 'deep-class',
      minAvailableReplicas: 1,
      selector: { matchLabels: { board: 'other' } },
      template: { metadata: { labels: { board: 'other' } }, spec: { drivers: [] } },
    });

    const pool = await until('the deep set reported', () => {
      const set = getSet(cluster, 'pool');
      return condition(set, 'SpecValid')?.status === 'False' ? set : undefined;
    });
    expect(condition(pool, 'SpecValid')).toMatchObject({
      reason: 'InvalidSpec',
      message: expect.stringContaining(`spec.parameters: ${TOO_DEEP}`),
    });
    expect(condition(pool, 'ParametersValid')).toMatchObject({
      status: 'False',
      message: expect.stringContaining(`spec.parameters: ${TOO_DEEP}`),
    });
    const onDeep = await until('the set on the deep class reported', () => {
      const set = getSet(cluster, 'on-deep-class');
      return condition(set, 'ParametersValid')?.status === 'False' ? set : undefined;
    });
    expect(condition(onDeep, 'ParametersValid')?.message).toContain(
      `VirtualTargetClass "deep-class" spec.parameters: ${TOO_DEEP}`,
    );
    await cluster.settle();

    // The existing instance keeps serving; nothing was created for the set on the deep class.
    expect(instancesOf(cluster, 'pool').map((e) => e.metadata?.name)).toEqual(before);
    expect(getSet(cluster, 'pool')?.status?.availableReplicas).toBe(1);
    expect(instancesOf(cluster, 'on-deep-class')).toEqual([]);
    // Every write of the controller passed Strict field validation; it is still running.
    expect(cluster.counters.totalWithCode(400, { identity: CONTROLLER })).toBe(0);
    expect(cluster.counters.total({ identity: CONTROLLER, verb: ['create', 'patch'] })).toBeGreaterThan(0);
    expect(stopped).toBe(false);
  });
});
