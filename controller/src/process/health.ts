/**
 * Health probes on `--health-probe-bind-address` (INTEROP §5: the Deployment probes `/healthz` and
 * `/readyz` on 8081).
 *
 * - `/healthz` (liveness): the process answers. It deliberately checks nothing else: restarting the
 *   controller because the API server is unreachable would not bring the API server back.
 * - `/readyz` (readiness): every watched resource is served (a CRD that is not installed fails it with
 *   what to install, served-resources.ts), the informer caches are synced and the process is not
 *   shutting down.
 *   Readiness does **not** depend on leadership: with `--leader-elect` every replica runs its
 *   informers, so a standby replica has warm caches and is ready to take over; were it unready, a
 *   Deployment rollout would wait on it forever, and no traffic is routed by this probe anyway.
 *
 * A failing `/readyz` answers 503 (Service Unavailable: not ready yet, say while a CRD is not installed),
 * a failing `/healthz` 500; both list the failing checks with their reasons, `?verbose` every check.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, parseBindAddress, reply, type HttpEndpoint } from './http-server';

/** A named probe check: `true` when healthy, otherwise why not. */
export type HealthCheck = () => true | string;

export interface HealthServerOptions {
  /** `--health-probe-bind-address`, e.g. `:8081`; `0` disables the server. */
  readonly bindAddress: string;
  /** Checks of `/healthz`. @default none: answering is alive */
  readonly liveness?: Readonly<Record<string, HealthCheck>>;
  /** Checks of `/readyz`. */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
}

/** Ready once `hasSynced()` says every informer cache is listed. */
export function cachesSyncedCheck(hasSynced: () => boolean): HealthCheck {
  return () => hasSynced() || 'informer caches are not synced yet';
}

/** Unready from the moment shutdown begins, so no new rollout step counts on this replica. */
export function notShuttingDownCheck(isShuttingDown: () => boolean): HealthCheck {
  return () => !isShuttingDown() || 'shutting down';
}

/** Runs `checks` and renders the probe answer; `failureCode` is the HTTP status of a failing probe. */
export function probe(
  name: string,
  checks: Readonly<Record<string, HealthCheck>>,
  verbose: boolean,
  failureCode = 500,
): { code: number; text: string } {
  const lines: string[] = [];
  let failed = false;
  for (const [check, run] of Object.entries(checks)) {
    let result: true | string;
    try {
      result = run();
    } catch (error) {
      result = error instanceof Error ? error.message : String(error);
    }
    if (result === true) {
      if (verbose) lines.push(`[+]${check} ok`);
    } else {
      failed = true;
      lines.push(`[-]${check} failed: ${result}`);
    }
  }
  if (!failed)
    return { code: 200, text: verbose ? [...lines, `${name} check passed`].join('\n') + '\n' : 'ok' };
  return { code: failureCode, text: [...lines, `${name} check failed`].join('\n') + '\n' };
}

/** Serves `/healthz` and `/readyz`; resolves to undefined when the address is `0`. */
export async function startHealthServer(options: HealthServerOptions): Promise<HttpEndpoint | undefined> {
  const address = parseBindAddress(options.bindAddress);
  if (!address) return undefined;
  const endpoints: Record<string, { checks: Readonly<Record<string, HealthCheck>>; failureCode: number }> = {
    '/healthz': { checks: options.liveness ?? {}, failureCode: 500 },
    '/readyz': { checks: options.readiness, failureCode: 503 },
  };
  return listen(address, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    const endpoint = endpoints[url.pathname];
    if (!endpoint) return reply(res, 404, 'not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'method not allowed\n');
    const verbose = url.searchParams.has('verbose');
    const { code, text } = probe(url.pathname.slice(1), endpoint.checks, verbose, endpoint.failureCode);
    reply(res, code, text);
  });
}
