/**
 * Shared helpers of the test-cluster conformance suites: the cluster of the selected backend, typed
 * clients for it, a valid ExporterSet, polling for eventually-true facts, and reading the `Status` of
 * a failed call.
 *
 * The conformance files run on both backends: `npm test` on the test cluster, `npm run test:kube`
 * (VIRTUAL_EXPORTERS_BACKEND=kube) on the real kube-apiserver, which is the judge of what is right.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { it } from '@jest/globals';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  type KubeConfig,
} from '@kubernetes/client-node';
import { API_VERSION, GROUP, JUMPSTARTER_GROUP, Kinds, Plurals, VERSION } from 'virtual-exporters/internal';
import {
  selectedBackend,
  startKubeCluster,
  startTestCluster,
  type KubeCluster,
  type KubeClusterOptions,
  type TestCluster,
  type TestClusterOptions,
} from '../src';

/** The backend of this run (VIRTUAL_EXPORTERS_BACKEND). */
export const backend = selectedBackend();

/**
 * `it` for a behaviour that only the test cluster's own machinery can bring about or observe (fault
 * injection, request counters, the store, `watchWindow`, `watchTimeoutSeconds`, clock control): it
 * runs on the test backend and is skipped on kube. Every use says why in a comment.
 */
export const testClusterOnly: typeof it.skip = backend === 'test' ? it : it.skip;

/**
 * What each backend answers, for a known difference (README, "Known differences from kube-apiserver
 * (measured)"): the case asserts both, so the list cannot go stale silently.
 */
export function onBackend<T>(answers: { readonly kube: T; readonly test: T }): T {
  return answers[backend];
}

/** Either cluster; `backend` tells them apart. */
export type ConformanceCluster = TestCluster | KubeCluster;

/** How long a start of the real cluster may take (beforeAll's timeout). */
export const START_TIMEOUT_MS = 180_000;

/**
 * How long `eventually` waits for what a controller does in the background (garbage collection):
 * kube-controller-manager needs seconds (its garbage collector learns new kinds through discovery),
 * the test cluster milliseconds.
 */
export const BACKGROUND_MS = backend === 'kube' ? 60_000 : 3000;

/**
 * Starts the cluster of the selected backend with `namespaces` (default `['default']`). `testOptions`
 * tune the test cluster only, `kubeOptions` the real one (kube-apiserver flags where it has the same
 * knob, e.g. `--min-request-timeout` for `watchTimeoutSeconds`); tests that depend on a knob only
 * the test cluster has are `testClusterOnly`.
 */
export async function startConformanceCluster(
  namespaces: readonly string[] = ['default'],
  testOptions: Omit<TestClusterOptions, 'namespaces'> = {},
  kubeOptions: Pick<KubeClusterOptions, 'apiServerFlags'> = {},
): Promise<ConformanceCluster> {
  return backend === 'kube'
    ? startKubeCluster({ ...kubeOptions, namespaces })
    : startTestCluster({ ...testOptions, namespaces });
}

/** The cluster as a test cluster, for `testClusterOnly` cases; throws on kube. */
export function asTestCluster(cluster: ConformanceCluster): TestCluster {
  if (cluster.backend !== 'test') throw new Error('this case runs only on the test cluster');
  return cluster;
}

/**
 * A raw GET of `path` as the kubeconfig's user (token or client certificate, http or https): for
 * requests client-node's typed clients cannot make (a malformed query parameter).
 */
export async function rawGet(kc: KubeConfig, path: string): Promise<{ status: number; body: any }> {
  const server = new URL(kc.getCurrentCluster()!.server);
  const options: RequestOptions = {
    method: 'GET',
    hostname: server.hostname,
    port: server.port,
    path,
    headers: { Accept: 'application/json' },
  };
  await kc.applyToHTTPSOptions(options);
  const send = server.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Clients {
  core: CoreV1Api;
  custom: CustomObjectsApi;
  objects: KubernetesObjectApi;
}

export function clientsFor(kc: KubeConfig): Clients {
  return {
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    objects: KubernetesObjectApi.makeApiClient(kc),
  };
}

/** CustomObjectsApi coordinates of our kinds. */
export const exporterSets = { group: GROUP, version: VERSION, plural: Plurals.ExporterSet } as const;
export const exporters = { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Exporter } as const;

/** A minimal valid ExporterSet; `spec` entries override the defaults given here. */
export function exporterSet(name: string, spec: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: API_VERSION,
    kind: Kinds.ExporterSet,
    metadata: { name },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { pool: name } },
      template: { metadata: { labels: { pool: name } } },
      ...spec,
    },
  };
}

/** The rejection of `call`: its HTTP code and the parsed `Status` body. Fails when `call` succeeds. */
export async function rejection(
  call: Promise<unknown>,
): Promise<{ code: number; status: Record<string, any> }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body = error.body;
    return { code: error.code, status: typeof body === 'string' && body ? JSON.parse(body) : (body ?? {}) };
  }
  throw new Error('expected the call to be rejected, but it succeeded');
}

/** Polls `check` every 10 ms until it returns without throwing (or `timeoutMs` passes). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
