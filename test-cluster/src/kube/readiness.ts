/**
 * Waiting for the real cluster's pieces: a TCP port that accepts, the API server's `/readyz`, a
 * CRD `Established` and served, a namespace's `default` ServiceAccount. A component that exits while
 * waited for fails the wait at once with the end of its log.
 */
import { request } from 'node:https';
import { connect } from 'node:net';
import type { ClientCredential } from './pki';
import type { ManagedProcess } from './processes';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function died(process: ManagedProcess | undefined): Error | undefined {
  const exit = process?.exited();
  if (!process || !exit) return undefined;
  return new Error(
    `${process.name} exited (code ${exit.code}, signal ${exit.signal}) before it was ready; ` +
      `the end of ${process.logFile}:\n${process.tail()}`,
  );
}

/** Polls `check` until it is true; fails after `timeoutMs` naming `what`, or when `process` dies. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  process?: ManagedProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
    const death = died(process);
    if (death) throw death;
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) {
      const log = process ? `; the end of ${process.logFile}:\n${process.tail()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${log}`);
    }
    await sleep(wait);
  }
}

export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** GET `path` on the API server as `credential`; resolves with the status code. */
export function httpsStatus(port: number, path: string, credential: ClientCredential): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        cert: credential.certificate,
        key: credential.key,
        rejectUnauthorized: false,
        timeout: 5000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}
