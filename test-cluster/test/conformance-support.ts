/**
 * Shared helpers of the test-cluster conformance suites: typed clients for a cluster, a valid
 * ExporterSet, polling for eventually-true facts, and reading the `Status` of a failed call.
 */
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  type KubeConfig,
} from '@kubernetes/client-node';
import { API_VERSION, GROUP, JUMPSTARTER_GROUP, Kinds, Plurals, VERSION } from 'virtual-exporters/internal';

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
