/**
 * Exporter credential Secrets that change or break under the controller. Jumpstarter owns
 * `<exporter>-exporter`; the controller only reads its token.
 * - A token changed in the Secret alone (nothing else about the Exporter changes) reaches the config
 *   Secret promptly: the Secret's change brings its set in, as the set's own objects do.
 */
import { describe, expect, it } from '@jest/globals';
import {
  NS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('credential Secrets', () => {
  it('re-syncs the config within seconds when only the credential Secret changes', async () => {
    const { cluster } = await startScenario({ speedUp: 20 });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    await until('the pool', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
    await cluster.settle();
    const secrets = cluster.registry.get('', 'v1', 'secrets')!;
    const [name] = instancesOf(cluster, 'pool').map((e) => e.metadata!.name!);
    const config = () =>
      Buffer.from(
        (cluster.store.get(secrets, NS, `exporter-config-${name}`).data as Record<string, string>)[
          'config.yaml'
        ],
        'base64',
      ).toString('utf8');

    const from = cluster.clock.now();
    cluster.store.patch(secrets, NS, `${name}-exporter`, 'merge', {
      data: { token: b64('rotated-opaque-token') },
    });
    await until('the new token in the config', () => config().includes('rotated-opaque-token'));
    expect(cluster.clock.now() - from).toBeLessThan(5_000);
  });
});
