/** Free TCP ports on loopback, for the servers the test cluster starts (sshd, etcd, kube-apiserver). */
import { createServer } from 'node:net';

/** A free TCP port on loopback (bound and released; the caller's server takes it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
