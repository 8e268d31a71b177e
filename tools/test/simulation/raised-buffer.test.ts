/**
 * The convergence oracle expects the buffer in effect, not the spec's alone: raised by an open window
 * of `spec.schedules` and by the forecast in mode Apply (from the demand history in the set's
 * ConfigMap, as the simulation seeds it), capped by the ceiling; and the set must report the raise.
 * ForecastOnly raises nothing. After a step of the controller's clock, the forecast may come from the
 * history as the object holds it, even one that reads as ending after now (read before a step back),
 * or from none (refused after it): whichever the set reports, and nothing else.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { API_VERSION, type ExporterSet, type ExporterSetStatus } from 'virtual-exporters/internal';
import { startTestCluster, type KubeObject, type TestCluster } from 'virtual-exporters-test-cluster';
import { unmet } from '../../src/simulation/convergence';
import { seededDemand } from '../../src/simulation/demand-seed';

const NS = 'lab';
let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

/** A window open at every moment, asking for `minAvailable`. */
const always = (minAvailable: number) => [
  { name: 'always', cron: '* * * * *', duration: '60s', minAvailableReplicas: minAvailable },
];

/** A status admission takes: every counter 0, and `fields`. */
const statusWith = (fields: Partial<ExporterSetStatus>): Partial<ExporterSetStatus> => ({
  ...Object.fromEntries(
    [
      'replicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
      'leasedReplicas',
      'exportersActive',
      'exportersIdle',
      'exportersDisabled',
      'exportersOffline',
      'podsRunning',
      'podsPending',
      'podsFailed',
      'podsUnknown',
    ].map((k) => [k, 0]),
  ),
  ...fields,
});
const AT = '2026-01-01T00:00:00Z';

interface Lab {
  readonly spec: Record<string, unknown>;
  readonly status?: Partial<ExporterSetStatus>;
  /** Leases held at once in every hour of the seeded history. */
  readonly peak?: number;
  /** How far after now the history was recorded (its last hour two hours before that). */
  readonly recordedAheadMs?: number;
  readonly historyMayBeRefused?: boolean;
}

/** What the oracle says of the buffer and its report for one set with no instance. */
async function judge({
  spec,
  status,
  peak,
  recordedAheadMs = 0,
  historyMayBeRefused,
}: Lab): Promise<string[]> {
  await cluster?.stop();
  cluster = await startTestCluster({ namespaces: [NS] });
  const c = cluster;
  const sets = c.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const set = c.store.create(sets, NS, {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name: 'pool' },
    spec: {
      virtualTargetClassName: 'qemu',
      minAvailableReplicas: 0,
      maxReplicas: 0,
      selector: { matchLabels: { board: 'x' } },
      template: { metadata: { labels: { board: 'x' } } },
      ...spec,
    },
  });
  if (status) c.store.patch(sets, NS, 'pool', 'merge', { status: statusWith(status) }, 'status');
  if (peak !== undefined) {
    const demand = seededDemand(
      set as unknown as ExporterSet,
      peak,
      c.clocks.controller.now() + recordedAheadMs,
    );
    c.store.create(c.registry.get('', 'v1', 'configmaps')!, NS, demand as unknown as KubeObject);
  }
  return unmet(c, {
    namespace: NS,
    deletedSets: new Set(),
    probeLeases: [],
    ...(historyMayBeRefused ? { historyMayBeRefused } : {}),
  }).filter((p) => /warm buffer asks|effectiveMinAvailable|status\.forecast/.test(p));
}

describe('simulation › convergence › raised buffers', () => {
  it('asks for the buffer an open window raises, and for its report; a window below the spec raises nothing', async () => {
    expect(await judge({ spec: { schedules: always(2) } })).toEqual([
      'set pool: status.effectiveMinAvailableReplicas undefined, expected 2 (spec 0)',
      'set pool: 0 available or standby, the warm buffer asks for 2 (raised from 0 by a window)',
    ]);
    expect(
      await judge({ spec: { schedules: always(2) }, status: { effectiveMinAvailableReplicas: 2 } }),
    ).toEqual(['set pool: 0 available or standby, the warm buffer asks for 2 (raised from 0 by a window)']);
    expect(
      await judge({
        spec: { schedules: always(2), minAvailableReplicas: 3 },
        status: { effectiveMinAvailableReplicas: 3 },
      }),
    ).toEqual([
      'set pool: status.effectiveMinAvailableReplicas 3, expected none (spec 3)',
      'set pool: 0 available or standby, the warm buffer asks for 3',
    ]);
  });

  it('asks for the buffer a forecast in mode Apply raises from the recorded demand, within maxExtra', async () => {
    expect(await judge({ spec: { forecast: { mode: 'Apply' } }, peak: 3 })).toEqual([
      'set pool: status.effectiveMinAvailableReplicas undefined, expected 3 (spec 0)',
      'set pool: status.forecast undefined, expected mode Apply, warmBuffer 3, applied true',
      'set pool: 0 available or standby, the warm buffer asks for 3 (raised from 0 by the forecast)',
    ]);
    expect(
      await judge({
        spec: { forecast: { mode: 'Apply', maxExtra: 1 }, minAvailableReplicas: 1 },
        peak: 5,
        status: {
          effectiveMinAvailableReplicas: 2,
          forecast: { mode: 'Apply', at: AT, warmBuffer: 2, applied: true },
        },
      }),
    ).toEqual([
      'set pool: 0 available or standby, the warm buffer asks for 2 (raised from 1 by the forecast)',
    ]);
    // Capped by the ceiling.
    expect(await judge({ spec: { forecast: { mode: 'Apply' }, maxReplicas: 2 }, peak: 5 })).toEqual([
      'set pool: status.effectiveMinAvailableReplicas undefined, expected 2 (spec 0)',
      'set pool: status.forecast undefined, expected mode Apply, warmBuffer 2, applied true',
      'set pool: 0 available or standby, the warm buffer asks for 2 (raised from 0 by the forecast)',
    ]);
  });

  it('expects ForecastOnly to report the forecast and raise nothing', async () => {
    expect(await judge({ spec: { forecast: { mode: 'ForecastOnly' } }, peak: 3 })).toEqual([
      'set pool: status.forecast undefined, expected mode ForecastOnly, warmBuffer 3, applied false',
    ]);
  });

  it('expects no forecast raise when the controller refused the history after a clock step, and says so', async () => {
    const missing = {
      forecast: {
        mode: 'Apply' as const,
        at: AT,
        applied: false,
        message: 'no demand history is recorded yet',
      },
    };
    expect(
      await judge({
        spec: { forecast: { mode: 'Apply' } },
        peak: 3,
        status: missing,
        historyMayBeRefused: true,
      }),
    ).toEqual([]);
    // Without a step of the controller's clock, a forecast the set does not make is a fault.
    expect(await judge({ spec: { forecast: { mode: 'Apply' } }, peak: 3, status: missing })).toHaveLength(3);
  });

  it('expects the forecast of a history that ends after now when the clock stepped back after it was read', async () => {
    const reported = {
      effectiveMinAvailableReplicas: 3,
      forecast: { mode: 'Apply' as const, at: AT, expectedPeak: 3, warmBuffer: 3, applied: true },
    };
    const lab = {
      spec: { forecast: { mode: 'Apply' } },
      peak: 3,
      recordedAheadMs: 4 * 3_600_000,
      status: reported,
    };
    expect(await judge({ ...lab, historyMayBeRefused: true })).toEqual([
      'set pool: 0 available or standby, the warm buffer asks for 3 (raised from 0 by the forecast)',
    ]);
    // Read at the controller's clock now, that history is refused: without a step, no forecast is due.
    expect(await judge(lab)).toEqual([
      'set pool: status.effectiveMinAvailableReplicas 3, expected none (spec 0)',
      'set pool: status.forecast {"mode":"Apply","at":"2026-01-01T00:00:00Z","expectedPeak":3,"warmBuffer":3,"applied":true}, expected mode Apply, warmBuffer undefined, applied false',
    ]);
  });
});
