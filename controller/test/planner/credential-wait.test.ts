/**
 * An instance whose credential never comes (a Secret `<exporter>-exporter` someone else wrote without
 * a `token`): no Pod is rendered, `InstancesHealthy` names the Secret once the wait outlasts the grace, and at
 * the startup timeout (from the Exporter's creation) the instance is failed and replaced — also with
 * InPlaceReuse, whose in-place replacement is a new Pod for the same Exporter and would never start.
 */
import { describe, expect, it } from '@jest/globals';
import type { InstanceSnapshot } from '../../src/planner';
import { plan } from '../../src/planner';
import { conditionOf, instance, makeSet, namesOf, snapshot } from './builders';

const TIMEOUT = 60_000;
/** Rendered credential and endpoint on the Exporter, but the Secret holds no token. */
const blocked = (createdAt: number): InstanceSnapshot => ({
  ...instance(0, 'unrendered', { createdAt }),
  credentialTokenMissing: true,
});
const run = (createdAt: number, spec = {}) =>
  plan(
    snapshot({
      set: makeSet({ minAvailableReplicas: 1, ...spec }),
      instances: [blocked(createdAt)],
      options: { startupTimeoutMs: TIMEOUT },
    }),
  );

describe('an instance waiting for its credential', () => {
  it('renders no Pod without the token and stays quiet during the grace', () => {
    const result = run(-10_000);
    expect(namesOf(result, 'RenderInstance')).toEqual([]);
    expect(conditionOf(result, 'InstancesHealthy')?.status).toBe('True');
    // Woken when the grace ends (30 s after the creation), not polled.
    expect(result.requeueAfterMs).toBe(20_000);

    const withToken = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(0, 'unrendered', { createdAt: -10_000 })],
      }),
    );
    expect(namesOf(withToken, 'RenderInstance')).toEqual(['pool-0']);
  });

  it('names the Secret on InstancesHealthy once the wait outlasts the grace', () => {
    const result = run(-40_000);
    expect(conditionOf(result, 'InstancesHealthy')).toMatchObject({
      status: 'False',
      reason: 'CredentialNotIssued',
    });
    expect(conditionOf(result, 'InstancesHealthy')?.message).toContain(
      'pool-0 waits for its credential Secret lab/pool-0-exporter (key token)',
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual([]);
    expect(result.requeueAfterMs).toBe(20_000);
  });

  it('fails and replaces it at the startup timeout, counted as a startup failure', () => {
    for (const recycleStrategy of ['ExitAndReplace', 'InPlaceReuse'] as const) {
      const result = run(-TIMEOUT - 1_000, { recycleStrategy });
      expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-0']);
      expect(namesOf(result, 'DeletePod')).toEqual([]);
      expect(namesOf(result, 'CreateExporter')).toEqual(['pool-1']);
      expect(result.status?.startupFailures).toBe(1);
      expect(result.events.find((e) => e.reason === 'StartupFailure')?.message).toContain(
        'Jumpstarter never issued its credential Secret lab/pool-0-exporter (key token)',
      );
    }
  });
});
