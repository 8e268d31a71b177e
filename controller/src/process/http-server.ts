/**
 * The controller's two small HTTP endpoints (health probes and metrics) and their bind addresses,
 * in controller-runtime's notation: `:8080` listens on every interface, `127.0.0.1:8080` or
 * `[::1]:8080` on one, port `0` on an ephemeral port (tests), and the address `0` disables the
 * endpoint.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BindAddress {
  /** Undefined: every interface. */
  readonly host?: string;
  readonly port: number;
}

/** Parses a bind address; `undefined` for `0` (disabled). Throws on anything else malformed. */
export function parseBindAddress(value: string): BindAddress | undefined {
  if (value === '0') return undefined;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65_535) {
    throw new Error(
      `invalid bind address "${value}": expected [host]:port, e.g. ":8080" (or "0" to disable)`,
    );
  }
  const host = match[1] ?? match[2];
  return host ? { host, port } : { port };
}

export interface HttpEndpoint {
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** A bind address the controller cannot listen on (taken, not local, not permitted). */
export class ListenError extends Error {
  override readonly name = 'ListenError';
}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the address is already in use',
  EADDRNOTAVAIL: 'the host is not an address of this machine',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'the host name does not resolve',
};

/** Serves `handler` on `address`; a failure to listen is a `ListenError` saying why. */
export async function listen(
  address: BindAddress,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<HttpEndpoint> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(new ListenError(LISTEN_PROBLEMS[error.code ?? ''] ?? error.message));
    server.once('error', failed);
    server.listen(address.port, address.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${bound.port}`,
    port: bound.port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Writes a plain-text answer. */
export function reply(
  res: ServerResponse,
  code: number,
  text: string,
  contentType = 'text/plain; charset=utf-8',
): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
