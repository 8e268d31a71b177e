/**
 * Applies manifests through the API server as `kubectl apply` does on a fresh cluster: the namespaces
 * first, then each object in order (classes before the sets that name them), creating it, or merging
 * it into the object of that name when one exists. Paths come from discovery (client-node's
 * `KubernetesObjectApi`), so any kind the server serves can be applied.
 */
import {
  KubernetesObjectApi,
  PatchStrategy,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { KubeObject } from 'virtual-exporters-test-cluster';
import { describe } from './manifests';

export async function applyManifests(
  kubeConfig: KubeConfig,
  namespaces: readonly string[],
  objects: readonly KubeObject[],
): Promise<void> {
  const client = KubernetesObjectApi.makeApiClient(kubeConfig);
  const namespaceObjects: KubeObject[] = namespaces.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  }));
  for (const object of [...namespaceObjects, ...objects]) {
    try {
      await client.create(object as KubernetesObject);
    } catch (error) {
      if (codeOf(error) !== 409) throw new Error(`applying ${describe(object)}: ${messageOf(error)}`);
      await client.patch(
        object as KubernetesObject,
        undefined,
        undefined,
        'lab',
        undefined,
        PatchStrategy.MergePatch,
      );
    }
  }
}

function codeOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? Number(error.code) : undefined;
}

/** The Status message of an API error (client-node puts the response body in `body`). */
function messageOf(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      const status = JSON.parse(body) as { message?: string };
      if (status.message) return status.message;
    } catch {
      // not JSON: fall through
    }
  }
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
