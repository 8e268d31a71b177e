/**
 * Label keys whose DNS-subdomain prefix is longer than Kubernetes allows (253 characters), admitted by
 * our CRD (it bounds the whole key, not its prefix): a selector key with a 260-character prefix and a
 * template label key with a 254-character prefix. Each set reports the key and the rule on
 * `SpecValid=False/InvalidSpec`; the controller sends no create for it at all (no loop of refused
 * writes), and the healthy set beside them keeps its buffer.
 */
import { describe, expect, it } from '@jest/globals';
import {
  CONTROLLER,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
  writesWhenSettled,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

/** A DNS subdomain of `length` characters: labels of 50 joined by dots. */
function subdomain(length: number): string {
  const labels: string[] = [];
  let left = length;
  while (left > 0) {
    const size = Math.min(50, labels.length === 0 ? left : left - 1);
    labels.push('a'.repeat(size));
    left -= size + (labels.length === 1 ? 0 : 1);
  }
  return labels.join('.');
}

const SELECTOR_KEY = `${subdomain(260)}/board`;
const TEMPLATE_KEY = `${subdomain(254)}/team`;

describe('label keys with a prefix over 253 characters', () => {
  it('are reported with the key and the rule, and nothing is created for them', async () => {
    expect(SELECTOR_KEY.split('/')[0]).toHaveLength(260);
    expect(TEMPLATE_KEY.split('/')[0]).toHaveLength(254);
    const { cluster, manager } = await startScenario({ speedUp: 50 });
    let stopped = false;
    void manager.done.then(() => (stopped = true));
    createClass(cluster);
    createSet(cluster, 'healthy', { minAvailableReplicas: 1, scaleDownCooldown: '1h' });
    createSet(cluster, 'selector-key', {
      minAvailableReplicas: 1,
      selector: {
        matchLabels: { board: 'sk' },
        matchExpressions: [{ key: SELECTOR_KEY, operator: 'DoesNotExist' }],
      },
      template: { metadata: { labels: { board: 'sk' } }, spec: { drivers: [] } },
    });
    createSet(cluster, 'template-key', {
      minAvailableReplicas: 1,
      selector: { matchLabels: { board: 'tk' } },
      template: { metadata: { labels: { board: 'tk', [TEMPLATE_KEY]: 'qa' } }, spec: { drivers: [] } },
    });
    const hostile = ['selector-key', 'template-key'];
    const status = (name: string) => getSet(cluster, name)?.status;
    await until(
      'the healthy set at its buffer and the hostile sets reported',
      () => status('healthy')?.availableReplicas === 1 && hostile.every((name) => status(name)?.conditions),
    );
    await cluster.settle();

    const specValid = (name: string) => status(name)?.conditions?.find((c) => c.type === 'SpecValid');
    // The key is named by its path, or (a key cut short where it is shown) by its name and length.
    const rule = 'label key must have a DNS-1123 subdomain before "/" of at most 253 characters';
    expect(specValid('selector-key')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(specValid('selector-key')?.message).toContain(
      `spec.selector.matchExpressions[0].key: ${rule} (the prefix before "/board" has 260) (got "aaaa`,
    );
    expect(specValid('template-key')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(specValid('template-key')?.message).toContain(
      `spec.template.metadata.labels[${TEMPLATE_KEY}]: ${rule} (the prefix before "/team" has 254)`,
    );

    for (const name of hostile) expect(instancesOf(cluster, name)).toEqual([]);
    expect(cluster.counters.totalWithCode(422, { identity: CONTROLLER })).toBe(0);
    expect(
      cluster.counters.total({
        identity: CONTROLLER,
        verb: 'create',
        group: 'jumpstarter.dev',
        resource: 'exporters',
      }),
    ).toBe(instancesOf(cluster, 'healthy').length);
    expect(await writesWhenSettled(cluster, 60_000)).toBe(0);
    expect(stopped).toBe(false);
  });
});
