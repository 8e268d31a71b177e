/**
 * The lease client against a remote API server: what `jmp create lease` and `jmp release` do, as
 * requests. `create`, `release`, `get` and `list` ask the server (their answers are the server's, and
 * go into the port's view); `waitFor` watches the port's view.
 */
import type { Lease } from 'virtual-exporters/internal';
import { leaseObject, type RemoteLeaseClient } from '../jumpstarter/lease-client';
import type { KubeObject } from '../types';
import type { RemotePort } from './remote-port';
import { waitForPortObject } from './wait-for';

const asLease = (object: KubeObject): Lease => object as unknown as Lease;

export function createRemoteLeaseClient(port: RemotePort): RemoteLeaseClient {
  return {
    create: async (request) => asLease(await port.create('Lease', request.namespace, leaseObject(request))),
    release: async (namespace, name) =>
      asLease(await port.patch('Lease', namespace, name, { spec: { release: true } })),
    async get(namespace, name) {
      const object = await port.read('Lease', namespace, name);
      return object === undefined ? undefined : asLease(object);
    },
    list: async (namespace) => (await port.fetchList('Lease', namespace)).map(asLease),
    waitFor: (namespace, name, predicate, timeoutMs) =>
      waitForPortObject<Lease>(port, 'Lease', namespace, name, predicate, timeoutMs),
  };
}
