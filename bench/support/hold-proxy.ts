/**
 * A TCP proxy in front of an API server that can hold new connections: while held, a connection is
 * accepted but nothing is read from it (its TLS handshake waits), so whatever the client asks for waits
 * too; `release()` lets every held connection through and forwards new ones at once. On the real
 * server (`--backend kube`), where there are no fault rules, P4 holds the controller's traffic this way
 * for a few seconds to read its memory with everything loaded and its caches still empty — what a
 * latency fault on its lists does on the test cluster. Bytes pass through untouched (TLS end to end).
 */
import { connect, createServer, type Socket } from 'node:net';

export interface HoldProxy {
  /** `https://127.0.0.1:<port>`: the URL to give the client instead of the server's. */
  readonly url: string;
  /** Connections accepted so far, held or not. */
  connections(): number;
  release(): void;
  close(): Promise<void>;
}

export async function startHoldProxy(target: string, options: { held?: boolean } = {}): Promise<HoldProxy> {
  const upstream = new URL(target);
  let held = options.held ?? true;
  let accepted = 0;
  const waiting: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const forward = (client: Socket) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(server);
    server.on('close', () => sockets.delete(server));
    client.pipe(server);
    server.pipe(client);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.resume();
  };
  const proxy = createServer({ pauseOnConnect: true }, (client) => {
    accepted += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (held) waiting.push(() => forward(client));
    else forward(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: `${upstream.protocol}//127.0.0.1:${port}`,
    connections: () => accepted,
    release() {
      held = false;
      for (const go of waiting.splice(0)) go();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
