/**
 * The few REST calls the bench makes of a real API server, for the resources it names (`sets`,
 * `exporters`, `pods`, …): create, get, merge-patch (of the object or its status) and list, as plain
 * JSON over one keep-alive HTTPS agent with the kubeconfig's client certificate. Seeding 10,000
 * instances sends tens of thousands of these; client-node's typed clients would convert every Pod and
 * Secret through their models for nothing. A failed call throws a `RestError` with the server's code.
 */
import { Agent, request, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { GROUP, JUMPSTARTER_GROUP, Plurals, VERSION } from 'virtual-exporters/internal';
import type { KubeObject } from 'virtual-exporters-test-cluster';
import type { ResourceName } from './cluster-service';

/** Where each resource the bench names is served. */
export const KUBE_RESOURCES: Readonly<
  Record<ResourceName, { readonly group: string; readonly version: string; readonly plural: string }>
> = {
  sets: { group: GROUP, version: VERSION, plural: Plurals.ExporterSet },
  classes: { group: GROUP, version: VERSION, plural: Plurals.VirtualTargetClass },
  exporters: { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Exporter },
  leases: { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Lease },
  pods: { group: '', version: 'v1', plural: 'pods' },
  secrets: { group: '', version: 'v1', plural: 'secrets' },
  revisions: { group: 'apps', version: 'v1', plural: 'controllerrevisions' },
};

/** The collection path of `resource`, in `namespace` or (undefined) in all. */
export function collectionPath(resource: ResourceName, namespace?: string): string {
  const { group, version, plural } = KUBE_RESOURCES[resource];
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return namespace === undefined
    ? `${base}/${plural}`
    : `${base}/namespaces/${encodeURIComponent(namespace)}/${plural}`;
}

export class RestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ObjectList {
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: KubeObject[];
}

export interface KubeRest {
  create(resource: ResourceName, namespace: string, object: KubeObject): Promise<KubeObject>;
  /** Undefined when the object does not exist. */
  get(resource: ResourceName, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** A JSON merge patch of the object, or of its status subresource. */
  patch(
    resource: ResourceName,
    namespace: string,
    name: string,
    patch: unknown,
    subresource?: 'status',
  ): Promise<KubeObject>;
  /** One page of a list of every namespace (`limit`, `continue`). */
  list(resource: ResourceName, query?: Record<string, string | number>): Promise<ObjectList>;
  /** Closes the agent's idle connections. */
  close(): void;
}

export async function kubeRest(kubeConfig: KubeConfig): Promise<KubeRest> {
  const server = kubeConfig.getCurrentCluster()?.server;
  if (!server) throw new Error('the kubeconfig names no cluster server');
  const url = new URL(server);
  const tls: RequestOptions = {};
  await kubeConfig.applyToHTTPSOptions(tls);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 64,
    ca: tls.ca,
    cert: tls.cert,
    key: tls.key,
    // skip-tls-verify in the kubeconfig (the real cluster's serving certificate is made per run)
    rejectUnauthorized: tls.rejectUnauthorized ?? true,
  });

  const call = <T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: {
            accept: 'application/json',
            ...(payload
              ? { 'content-type': contentType ?? 'application/json', 'content-length': payload.length }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) {
              resolve(JSON.parse(text) as T);
              return;
            }
            let message = text;
            try {
              message = (JSON.parse(text) as { message?: string }).message ?? text;
            } catch {
              // not a Status: keep the text
            }
            reject(new RestError(code, `${method} ${path}: ${code} ${message}`));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const objectPath = (resource: ResourceName, namespace: string, name: string) =>
    `${collectionPath(resource, namespace)}/${encodeURIComponent(name)}`;

  return {
    create: (resource, namespace, object) =>
      call<KubeObject>('POST', collectionPath(resource, namespace), {
        ...object,
        metadata: { ...object.metadata, namespace },
      }),
    async get(resource, namespace, name) {
      try {
        return await call<KubeObject>('GET', objectPath(resource, namespace, name));
      } catch (error) {
        if (error instanceof RestError && error.code === 404) return undefined;
        throw error;
      }
    },
    patch: (resource, namespace, name, patch, subresource) =>
      call<KubeObject>(
        'PATCH',
        `${objectPath(resource, namespace, name)}${subresource ? `/${subresource}` : ''}`,
        patch,
        'application/merge-patch+json',
      ),
    list(resource, query = {}) {
      const search = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const suffix = search.size > 0 ? `?${search.toString()}` : '';
      return call<ObjectList>('GET', `${collectionPath(resource)}${suffix}`);
    },
    close: () => agent.destroy(),
  };
}
