/**
 * P6 drain: a pool of 21 idle instances whose warm buffer drops from 21 to 1, so 20 instances become
 * surplus at once (SPEC §3.7: after the surplus lasted `scaleDownCooldown`, all of it goes in one
 * step, gracefully: disable, confirm no Lease names it, delete). Real time: the cluster child runs at
 * speed 1 and the cooldown is short (5 s; 3 s in quick mode).
 *
 * Reported: when the surplus appeared, the window start the controller persisted in status, the first
 * and last disable and delete requests (server-side), and pass/fail: all 20 deleted, none before the
 * window elapsed, and all within one cooldown window after it (not one per cooldown).
 */
import type { Benchmark } from './support/benchmark';
import { profileFlags } from './support/benchmark';
import { startClusterChild } from './support/cluster-child';
import { waitUntil } from './support/clock';
import { startControllerChild } from './support/controller-child';
import { CONTROLLER_IDENTITY, waitForQuiet } from './support/quiet';
import type { BenchResult } from './support/results';
import { classObject, setObject } from './support/seed';

const NAMESPACE = 'drain';
const SET = 'pool-0';
const SURPLUS = 20;
const KEPT = 1;

export interface DrainTimes {
  readonly cooldownMs: number;
  /** When the warm buffer was lowered (the surplus appeared). */
  readonly surplusAt: number;
  /** `status.scaleDownWindowStart` (an RFC 3339 time, possibly cut to whole seconds). */
  readonly windowStart?: number;
  readonly deletes: readonly number[];
  readonly disables: readonly number[];
}

export interface DrainVerdict {
  readonly pass: boolean;
  readonly reasons: readonly string[];
}

/**
 * Pass: every surplus instance deleted; none before the window (its start plus the
 * cooldown) elapsed; the last one before a second cooldown would have elapsed.
 */
export function judgeDrain(times: DrainTimes, surplus = SURPLUS): DrainVerdict {
  const reasons: string[] = [];
  const start = times.windowStart ?? times.surplusAt;
  if (times.windowStart === undefined) reasons.push('the controller persisted no scaleDownWindowStart');
  if (times.deletes.length < surplus)
    reasons.push(`${times.deletes.length} of ${surplus} surplus instances deleted`);
  const first = Math.min(...times.deletes);
  const last = Math.max(...times.deletes);
  // A window start cut to whole seconds may be up to one second early: allow it.
  if (times.deletes.length > 0 && first < start + times.cooldownMs - 1000) {
    reasons.push(
      `a delete came ${Math.round(start + times.cooldownMs - first)} ms before the cooldown ended`,
    );
  }
  if (times.deletes.length > 0 && last > start + 2 * times.cooldownMs + 1000) {
    reasons.push(
      `the last delete came ${Math.round(last - start - times.cooldownMs)} ms after the cooldown ended`,
    );
  }
  return { pass: reasons.length === 0, reasons };
}

export const p6: Benchmark = {
  id: 'p6',
  name: 'p6-drain',
  title: 'drain: 20 surplus idle instances removed within one cooldown window',
  async run(context): Promise<BenchResult> {
    const cooldownMs = context.settings.quick ? 3000 : 5000;
    const cluster = await startClusterChild({
      backend: context.settings.backend,
      namespaces: [NAMESPACE],
      identities: [CONTROLLER_IDENTITY],
    });
    try {
      await cluster.call('create', 'classes', NAMESPACE, classObject());
      const controller = await startControllerChild({
        kubeconfigYaml: cluster.kubeconfigs[CONTROLLER_IDENTITY],
        nodeFlags: profileFlags(context.settings, 'p6'),
      });
      try {
        await controller.ready();
        const spec = { minReplicas: 0, maxReplicas: 40, scaleDownCooldown: `${cooldownMs / 1000}s` };
        await cluster.call(
          'create',
          'sets',
          NAMESPACE,
          setObject(SET, { ...spec, minAvailableReplicas: SURPLUS + KEPT }, false),
        );
        await waitUntil(
          `${SURPLUS + KEPT} Online instances`,
          async () => (await cluster.call('counts', [NAMESPACE])).online >= SURPLUS + KEPT,
          { timeoutMs: 60_000, intervalMs: 50 },
        );
        await waitForQuiet(cluster, { quietMs: 1000 });
        await cluster.call('record', ['sets', 'exporters']);
        const requestsFrom = (await cluster.call('requests', 0)).next;
        const surplusAt = cluster.toLocal(await cluster.call('now'));
        await cluster.call('patch', 'sets', NAMESPACE, SET, { spec: { minAvailableReplicas: KEPT } });
        await waitUntil(
          `the ${SURPLUS} surplus instances to be deleted`,
          async () => (await cluster.call('counts', [NAMESPACE])).exporters <= KEPT,
          { timeoutMs: 3 * cooldownMs + 30_000, intervalMs: 50 },
        );
        const requests = (await cluster.call('requests', requestsFrom)).entries.filter(
          (r) => r.identity === CONTROLLER_IDENTITY && r.resource === 'exporters' && r.subresource === '',
        );
        const events = (await cluster.call('events', 0)).entries;
        const windowStartText = events.find((e) => e.resource === 'sets' && e.windowStart)?.windowStart;
        const times: DrainTimes = {
          cooldownMs,
          surplusAt,
          ...(windowStartText ? { windowStart: Date.parse(windowStartText) } : {}),
          deletes: requests.filter((r) => r.verb === 'delete').map((r) => cluster.toLocal(r.at)),
          disables: requests.filter((r) => r.verb === 'patch').map((r) => cluster.toLocal(r.at)),
        };
        const verdict = judgeDrain(times);
        const since = (t: number) => Math.round(t - surplusAt);
        const firstDelete = Math.min(...times.deletes);
        const lastDelete = Math.max(...times.deletes);
        return {
          name: 'p6-drain',
          title: this.title,
          figures: [
            {
              label: 'drained within one cooldown window',
              value: verdict.pass ? 1 : 0,
              unit: 'pass',
              target: { op: '==', value: 1 },
            },
            { label: 'surplus → last delete', value: since(lastDelete), unit: 'ms' },
            { label: 'first → last delete', value: Math.round(lastDelete - firstDelete), unit: 'ms' },
          ],
          details: {
            surplus: SURPLUS,
            kept: KEPT,
            cooldownMs,
            windowStart: windowStartText ?? null,
            windowStartAfterSurplusMs: times.windowStart === undefined ? null : since(times.windowStart),
            firstDisableMs: since(Math.min(...times.disables)),
            lastDisableMs: since(Math.max(...times.disables)),
            firstDeleteMs: since(firstDelete),
            lastDeleteMs: since(lastDelete),
            deletes: times.deletes.length,
            disables: times.disables.length,
            verdict,
          },
          notes: ['times are milliseconds after the warm buffer was lowered (server-side request arrival)'],
        };
      } finally {
        await controller.stop();
      }
    } finally {
      await cluster.stop();
    }
  },
};
