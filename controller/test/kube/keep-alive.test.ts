/**
 * The controller's API calls share kept-alive connections (kube/keep-alive.ts): client-node 1.x
 * alone opens a connection, and over TLS a handshake, for every request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { createPki, type ClusterPki } from 'virtual-exporters-test-cluster';
import { createClients } from '../../src/kube/clients';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const NAMESPACES = JSON.stringify({ apiVersion: 'v1', kind: 'NamespaceList', metadata: {}, items: [] });

/** A server answering every request with an empty NamespaceList, counting connections and who made them. */
function serve(server: Server, tls: boolean) {
  const connections: string[] = [];
  let open = 0;
  server.on(tls ? 'secureConnection' : 'connection', (socket: TLSSocket) => {
    const cn = tls ? socket.getPeerCertificate().subject?.CN : undefined;
    connections.push(typeof cn === 'string' ? cn : 'plain');
    open += 1;
    socket.on('close', () => (open -= 1));
  });
  server.on('request', (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(NAMESPACES);
  });
  return {
    connections,
    open: () => open,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
  };
}

function kubeConfigFor(server: string, user: { certData?: string; keyData?: string }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

let dir: string;
let pki: ClusterPki;
const servers: Server[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'keep-alive-'));
  pki = createPki(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function httpsServer() {
  const server = createHttpsServer({
    cert: readFileSync(pki.caCertFile),
    key: readFileSync(join(dir, 'ca.key')),
    requestCert: true,
    rejectUnauthorized: false,
  });
  servers.push(server);
  return serve(server, true);
}

describe('kept-alive API connections', () => {
  it('makes one TLS connection for many requests with a client certificate, where client-node alone makes one each', async () => {
    const counted = httpsServer();
    const address = await counted.listen();
    const ada = pki.clientCredential('ada', []);
    const kc = kubeConfigFor(`https://${address}`, { certData: b64(ada.certificate), keyData: b64(ada.key) });

    const clients = createClients(kc);
    for (let i = 0; i < 10; i += 1) await clients.core.listNamespace();
    expect(counted.connections).toEqual(['ada']);

    // The cause, measured: client-node's own clients open a connection per request.
    const plain = kc.makeApiClient(CoreV1Api);
    for (let i = 0; i < 3; i += 1) await plain.listNamespace();
    expect(counted.connections).toHaveLength(4);
    clients.close();
  });

  it('opens a new connection with the new certificate when the client certificate changes', async () => {
    const counted = httpsServer();
    const address = await counted.listen();
    const ada = pki.clientCredential('ada', []);
    const kc = kubeConfigFor(`https://${address}`, { certData: b64(ada.certificate), keyData: b64(ada.key) });
    const clients = createClients(kc);
    await clients.core.listNamespace();
    // A rotated certificate (an exec plugin, or a kubeconfig written again).
    const grace = pki.clientCredential('grace', []);
    const user = kc.getCurrentUser() as { certData?: string; keyData?: string };
    user.certData = b64(grace.certificate);
    user.keyData = b64(grace.key);
    await clients.core.listNamespace();
    await clients.core.listNamespace();
    expect(counted.connections).toEqual(['ada', 'grace']);
    clients.close();
  });

  it('keeps plain HTTP connections too, and close() ends them', async () => {
    const server = createHttpServer();
    servers.push(server);
    const counted = serve(server, false);
    const address = await counted.listen();
    const clients = createClients(kubeConfigFor(`http://${address}`, {}));
    for (let i = 0; i < 5; i += 1) await clients.core.listNamespace();
    expect(counted.connections).toEqual(['plain']);
    expect(counted.open()).toBe(1);
    clients.close();
    for (let i = 0; i < 100 && counted.open() > 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(counted.open()).toBe(0);
  });
});
