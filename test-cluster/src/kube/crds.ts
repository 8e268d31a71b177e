/**
 * Installing CRDs into the real API server as `kubectl apply` would (create, or replace the stored
 * one), then waiting until each is `Established` and its resources answer a list — the moment a
 * client may use them.
 *
 * The CRDs go through the generic custom-object client, not ApiextensionsV1Api: client-node's typed
 * serializer maps `x-kubernetes-*` keys to camelCase properties and drops the ones a plain object
 * carries, so the server would get a CRD without its CEL rules and int-or-string markers.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { CustomResourceDefinition } from 'virtual-exporters/internal';
import { waitUntil } from './readiness';

export async function installKubeCrds(
  kubeConfig: KubeConfig,
  crds: readonly CustomResourceDefinition[],
  timeoutMs: number,
): Promise<void> {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const crdApi = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
  const read = async (name: string) =>
    (await custom.getClusterCustomObject({ ...crdApi, name })) as {
      metadata?: { resourceVersion?: string };
      status?: { conditions?: { type: string; status: string }[] };
    };
  for (const crd of crds) {
    const body = structuredClone(crd) as unknown as { metadata?: Record<string, unknown> };
    const name = crd.metadata.name;
    try {
      await custom.createClusterCustomObject({ ...crdApi, body });
    } catch (error) {
      if ((error as { code?: number }).code !== 409) throw describe(error, name);
      body.metadata = { ...body.metadata, resourceVersion: (await read(name)).metadata?.resourceVersion };
      await custom.replaceClusterCustomObject({ ...crdApi, name, body }).catch((e: unknown) => {
        throw describe(e, name);
      });
    }
  }
  for (const crd of crds) {
    const name = crd.metadata.name;
    await waitUntil(
      `CRD ${name} to be Established`,
      async () => {
        const stored = await read(name);
        return Boolean(
          stored.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'),
        );
      },
      timeoutMs,
    );
    const version = crd.spec.versions.find((v) => v.served && v.storage) ?? crd.spec.versions[0];
    if (!version) continue;
    const plural = crd.spec.names.plural;
    await waitUntil(
      `${plural}.${crd.spec.group}/${version.name} to be served`,
      async () => {
        await custom.listClusterCustomObject({
          group: crd.spec.group,
          version: version.name,
          plural,
          limit: 1,
        });
        return true;
      },
      timeoutMs,
    );
  }
}

/** The API server's refusal of a CRD as an Error naming the CRD (its message says the field). */
function describe(error: unknown, name: string): Error {
  const e = error as { code?: number; body?: unknown; message?: string };
  let message = e.message ?? String(error);
  try {
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    if (body && typeof body === 'object' && 'message' in body) message = String(body.message);
  } catch {
    // not a Status body: keep the client's message
  }
  return new Error(`the API server refused CRD ${name} (${e.code ?? 'no code'}): ${message}`);
}
