/**
 * Nothing fails silently (SPEC §3.18), on the test cluster: a write the API refuses for good — a 403
 * from RBAC on Secret or Pod creates, a 422 for a config Secret over 1 MiB — or a config the provisioner
 * cannot render shows on the set's ReplicaFailure condition with the reason of its write and the API's
 * message, and a Warning Event; the instance that cannot get its Pod is failed after the startup
 * timeout (counted from the controller's first try) and replaced through the startup backoff, so the
 * refusal never loops creates; the condition clears once the write succeeds.
 */
import { describe, expect, it } from '@jest/globals';
import { qemuProvisioner, type ExporterSet, type Provisioner } from 'virtual-exporters/internal';
import type { FaultRule } from 'virtual-exporters-test-cluster';
import { startManager, type Manager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import {
  CONTROLLER,
  NS,
  condition,
  controllerOptions,
  createClass,
  createSet,
  eventsOf,
  getSet,
  podNames,
  clusterTimeReaches,
  scenarioPerTest,
  until,
  untilStored,
  type Scenario,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

/** Startup timeout and backoff of these tests (cluster ms). */
const TIMEOUT_MS = 60_000;
const BACKOFF = { startupBackoffBaseMs: 10_000, startupBackoffMaxMs: 40_000 };

/** The scenario's controller replaced by one with short startup timeouts (and `provisioner`). */
async function withController(scenario: Scenario, provisioner?: Provisioner): Promise<Manager> {
  await scenario.manager.stop();
  scenario.manager = await startManager(controllerOptions(provisioner ? { provisioner } : {}), {
    kubeConfig: scenario.cluster.kubeConfigFor(CONTROLLER, NS),
    clock: scenario.cluster.clock,
    logger: createLogger({ level: 'silent' }),
    plannerOptions: { startupTimeoutMs: TIMEOUT_MS, ...BACKOFF },
  });
  return scenario.manager;
}

const replicaFailure = (scenario: Scenario) => condition(getSet(scenario.cluster, 'pool'), 'ReplicaFailure');

const exporterCreates = (scenario: Scenario) =>
  scenario.cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: 'exporters' });

/**
 * A refusal of `fault` for good: the condition names it within a pass, the instance is failed and
 * replaced after the timeout, and the creates stay bounded by the timeout and the backoff.
 */
async function refusedForGood(fault: FaultRule, reason: string, apiMessage: string): Promise<void> {
  const scenario = await startScenario({ speedUp: 50 });
  const { cluster } = scenario;
  await withController(scenario);
  const id = cluster.faults.add(fault);
  // The first status that reports the refusal, kept as it is written (a watch, not a sample).
  let firstReport: ExporterSet | undefined;
  const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const watch = cluster.store.watch(sets, NS, { resourceVersion: cluster.store.resourceVersion() }, (e) => {
    const set = e.object as unknown as ExporterSet;
    if (firstReport === undefined && condition(set, 'ReplicaFailure')?.status === 'True') firstReport = set;
  });
  createClass(cluster);
  createSet(cluster, 'pool', { minAvailableReplicas: 1 });
  const started = cluster.clock.now();

  const failure = await untilStored(cluster, 'ReplicaFailure=True', () =>
    firstReport === undefined ? undefined : condition(firstReport, 'ReplicaFailure'),
  ).finally(() => watch.stop());
  // Reported by the pass that failed, not once the startup timeout failed the instance: the first
  // status that says so counts no startup failure yet (however long a loaded machine took to get there).
  expect(firstReport?.status?.startupFailures ?? 0).toBe(0);
  expect(failure.reason).toBe(reason);
  expect(failure.message).toContain('instance pool-0');
  expect(failure.message).toContain(apiMessage);
  await until('a Warning Event with the message', () =>
    eventsOf(cluster, 'pool').some(
      (e) => e.type === 'Warning' && e.reason === reason && e.message.includes(apiMessage),
    ),
  );
  expect(podNames(cluster)).toEqual([]);

  // No Pod ever: pool-0 is failed after the timeout and replaced.
  await until(
    'pool-0 failed and replaced',
    () => getSet(cluster, 'pool')?.status?.startupFailures === 1 && exporterCreates(scenario) >= 2,
  );
  expect(cluster.clock.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
  const health = condition(getSet(cluster, 'pool'), 'InstancesHealthy');
  expect(health?.reason).toBe('StartupFailureBackoff');

  // Bounded: over ten minutes of refusals, one create per timeout at most (plus the first).
  const from = cluster.clock.now();
  await clusterTimeReaches(cluster, from + 600_000);
  const elapsed = cluster.clock.now() - started;
  expect(exporterCreates(scenario)).toBeLessThanOrEqual(1 + Math.ceil(elapsed / TIMEOUT_MS));
  expect(cluster.faults.hits(id)).toBeGreaterThan(0);

  // Lifted: the pool fills and the condition clears.
  cluster.faults.remove(id);
  await until(
    'an available instance',
    () => getSet(cluster, 'pool')?.status?.availableReplicas === 1,
    60_000,
  );
  await until('ReplicaFailure=False', () => replicaFailure(scenario)?.status === 'False', 60_000);
}

describe('§3.18 nothing fails silently', () => {
  it('a persistent 403 on Secret create shows as FailedCreateSecret, and the instance is replaced after the timeout with bounded creates', async () => {
    await refusedForGood(
      { kind: 'error', code: 403, verb: 'create', resource: 'secrets', identity: CONTROLLER },
      'FailedCreateSecret',
      'is forbidden',
    );
  }, 120_000);

  it('a 422 for a config Secret over 1 MiB shows as FailedCreateSecret with the API message, and the instance is replaced', async () => {
    await refusedForGood(
      { kind: 'error', code: 422, verb: 'create', resource: 'secrets', identity: CONTROLLER },
      'FailedCreateSecret',
      'Too long',
    );
  }, 120_000);

  it('a persistent 403 on Pod create shows as FailedCreatePod', async () => {
    await refusedForGood(
      { kind: 'error', code: 403, verb: 'create', resource: 'pods', identity: CONTROLLER },
      'FailedCreatePod',
      'is forbidden',
    );
  }, 120_000);

  it('a config that cannot be rendered shows as FailedRender with its message; no Pod starts and nothing crashes', async () => {
    const scenario = await startScenario({ speedUp: 50 });
    const { cluster } = scenario;
    const unrenderable: Provisioner = {
      ...qemuProvisioner,
      render: () => {
        throw new Error('the driver config cannot be written as YAML');
      },
    };
    const manager = await withController(scenario, unrenderable);
    let ended: string | undefined;
    void manager.done.then((reason) => (ended = String(reason)));
    createClass(cluster);
    createSet(cluster, 'pool', { minAvailableReplicas: 1 });

    const failure = await until('ReplicaFailure=True', () => {
      const c = replicaFailure(scenario);
      return c?.status === 'True' ? c : undefined;
    });
    expect(failure.reason).toBe('FailedRender');
    expect(failure.message).toBe('instance pool-0: the driver config cannot be written as YAML');
    await until(
      'pool-0 failed after the timeout',
      () => getSet(cluster, 'pool')?.status?.startupFailures === 1,
    );
    expect(podNames(cluster)).toEqual([]);
    expect(
      cluster.counters.total({ identity: CONTROLLER, verb: 'create', resource: ['pods', 'secrets'] }),
    ).toBe(0);
    expect(ended).toBeUndefined();
  }, 60_000);
});
