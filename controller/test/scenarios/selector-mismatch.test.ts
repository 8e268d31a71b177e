/**
 * A selector that does not select the template labels: our CRD rejects it at
 * admission; on a cluster whose CRDs lack that rule (an older or hand-edited CRD), the controller
 * reports it in `SpecValid` and creates nothing, and fixing the selector recovers.
 */
import { describe, expect, it } from '@jest/globals';
import {
  RuleMessages,
  jumpstarterCrds,
  ourCrds,
  type CustomResourceDefinition,
} from 'virtual-exporters/internal';
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
} from './support';

const startScenario = scenarioPerTest();

const mismatched = { selector: { matchLabels: { board: 'rpi4' } } };

/** Our CRDs without the selector-matches-template rule. */
function crdsWithoutSelectorRule(): CustomResourceDefinition[] {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] =
        key === 'x-kubernetes-validations'
          ? (value as { message?: string }[]).filter(
              (r) => r.message !== RuleMessages.selectorMatchesTemplate,
            )
          : strip(value);
    }
    return out;
  };
  return [...ourCrds.map((crd) => strip(crd) as CustomResourceDefinition), ...jumpstarterCrds];
}

describe('§3.13: a selector that does not select the template labels', () => {
  it('is rejected at admission by our CRDs', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    expect(() => createSet(cluster, 'mismatch', mismatched)).toThrow(RuleMessages.selectorMatchesTemplate);
  });

  it('when it slips through, is reported in SpecValid and nothing is created', async () => {
    const crds = crdsWithoutSelectorRule();
    expect(JSON.stringify(crds)).not.toContain(RuleMessages.selectorMatchesTemplate);
    const { cluster } = await startScenario({ speedUp: 20, crds });
    createClass(cluster);
    createSet(cluster, 'mismatch', { ...mismatched, minAvailableReplicas: 2 });
    const invalid = await until('SpecValid=False', () => {
      const c = condition(getSet(cluster, 'mismatch'), 'SpecValid');
      return c?.status === 'False' ? c : undefined;
    });
    expect(invalid.reason).toBe('SelectorDoesNotMatchTemplate');
    expect(invalid.message).toContain('spec.selector');
    await cluster.settle();
    const settledAt = cluster.clock.now();
    await until('5 s of cluster time', () => cluster.clock.now() - settledAt >= 5_000);
    expect(instancesOf(cluster, 'mismatch')).toHaveLength(0);
    expect(
      cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: ['exporters', 'pods'] }),
    ).toBe(0);

    patchSetSpec(cluster, 'mismatch', { selector: { matchLabels: { board: 'qemu-x86' } } });
    await until('the pool', () => getSet(cluster, 'mismatch')?.status?.availableReplicas === 2);
    await until(
      'SpecValid=True',
      () => condition(getSet(cluster, 'mismatch'), 'SpecValid')?.status === 'True',
    );
    expect(condition(getSet(cluster, 'mismatch'), 'Degraded')?.status).toBe('False');
  });
});
