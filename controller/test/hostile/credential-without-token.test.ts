/**
 * An Exporter credential Secret without a token (issue 7): Jumpstarter owns `<exporter>-exporter`,
 * but when someone else wrote that Secret first, without a `token`, Jumpstarter cannot issue one and
 * the instance can never start. The set says which Secret it waits for, and after the startup
 * timeout replaces the instance instead of counting it as supply for ever.
 */
import { describe, expect, it } from '@jest/globals';
import { startManager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import {
  CONTROLLER,
  NS,
  controllerOptions,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
} from '../scenarios/support';

const startScenario = scenarioPerTest();
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('a credential Secret without a token', () => {
  it('names a credential Secret without a token, and replaces the instance after the startup timeout', async () => {
    const { cluster, manager } = await startScenario({ speedUp: 50 });
    await manager.stop();
    const secrets = cluster.registry.get('', 'v1', 'secrets')!;
    cluster.store.create(secrets, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pool-0-exporter' },
      data: { other: b64('no token here') },
    });
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });
    const restarted = await startManager(controllerOptions(), {
      kubeConfig: cluster.kubeConfigFor(CONTROLLER, NS),
      clock: cluster.clock,
      logger: createLogger({ level: 'silent' }),
      plannerOptions: { startupTimeoutMs: 60_000 },
    });
    try {
      const messages = () =>
        (getSet(cluster, 'pool')?.status?.conditions ?? []).map((c) => c.message).join(' | ');
      await until('the set names the Secret', () => messages().includes('pool-0-exporter'));
      const health = getSet(cluster, 'pool')?.status?.conditions?.find((c) => c.type === 'InstancesHealthy');
      expect(health).toMatchObject({ status: 'False', reason: 'CredentialNotIssued' });
      expect(health?.message).toContain(`pool-0 waits for its credential Secret ${NS}/pool-0-exporter`);
      expect(messages()).not.toContain('no token here');
      await until('a replacement serves', () => getSet(cluster, 'pool')?.status?.availableReplicas === 1);
      expect(instancesOf(cluster, 'pool').map((e) => e.metadata!.name)).not.toContain('pool-0');
    } finally {
      await restarted.stop();
    }
  });
});
