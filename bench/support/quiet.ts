/**
 * Write requests of one identity, and waiting until it stops making them: the benchmarks measure a
 * controller from the moment it has settled (its first status writes and events done).
 */
import type { Verb } from 'virtual-exporters-test-cluster';
import type { ClusterChild } from './cluster-child';
import { sleep } from './clock';

export const CONTROLLER_IDENTITY = 'controller';
export const WRITE_VERBS: readonly Verb[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];

export function writesOf(cluster: ClusterChild, identity = CONTROLLER_IDENTITY): Promise<number> {
  return cluster.call('requestTotal', { identity, verb: [...WRITE_VERBS] });
}

/**
 * Resolves once `identity` has made no write for `quietMs`; returns how long that took. Rejects after
 * `timeoutMs`.
 */
export async function waitForQuiet(
  cluster: ClusterChild,
  options: { identity?: string; quietMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const quietMs = options.quietMs ?? 2000;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const started = Date.now();
  let seen = await writesOf(cluster, options.identity);
  let since = Date.now();
  for (;;) {
    await sleep(Math.min(100, quietMs / 4));
    const now = await writesOf(cluster, options.identity);
    if (now !== seen) [seen, since] = [now, Date.now()];
    else if (Date.now() - since >= quietMs) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`the ${options.identity ?? CONTROLLER_IDENTITY} still writes after ${timeoutMs} ms`);
    }
  }
}
