/**
 * A judge of admission over HTTP: runs the writes of a case (test/admission/writes.ts) through
 * @kubernetes/client-node against any API server — the test cluster or a real kube-apiserver — in a
 * namespace of its own, and reports what the server said: admitted, or the refused write with the
 * `Status` of the answer. Bodies go out as written (CustomObjectsApi does not pass them through a
 * model), so a malformed object reaches the server malformed.
 */
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import { GROUP, JUMPSTARTER_GROUP, Plurals, VERSION } from '../../lib/api';
import type { Resource, Write } from './writes';

const COORDINATES: Record<Resource, { group: string; version: string; plural: string }> = {
  exporterSets: { group: GROUP, version: VERSION, plural: Plurals.ExporterSet },
  classes: { group: GROUP, version: VERSION, plural: Plurals.VirtualTargetClass },
  operations: { group: GROUP, version: VERSION, plural: Plurals.ExporterOperation },
  exporters: { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Exporter },
  leases: { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Lease },
};

/** One cause of a refusal (`Status.details.causes[]`). */
export interface Cause {
  readonly field?: string;
  readonly message?: string;
  readonly reason?: string;
}

export type Verdict =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      /** Which write was refused (0-based). */
      readonly write: number;
      readonly code: number;
      readonly reason: string;
      readonly message: string;
      readonly causes: readonly Cause[];
    };

type Json = Record<string, any>;

/** `object` moved to `namespace` (a copy). */
function inNamespace(object: Json, namespace: string): Json {
  const copy = structuredClone(object);
  if (copy.metadata && typeof copy.metadata === 'object') copy.metadata.namespace = namespace;
  return copy;
}

export class HttpJudge {
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;
  private namespaces = 0;

  /** `prefix` names the namespaces the cases run in (`<prefix>-<n>`). */
  constructor(
    kubeConfig: KubeConfig,
    private readonly prefix: string,
  ) {
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Runs `writes` in a fresh namespace; stops at the first refusal. */
  async judge(writes: readonly Write[]): Promise<Verdict> {
    const namespace = `${this.prefix}-${++this.namespaces}`;
    await this.core.createNamespace({ body: { metadata: { name: namespace } } });
    for (const [index, write] of writes.entries()) {
      try {
        await this.send(namespace, write);
      } catch (error) {
        if (!(error instanceof ApiException)) throw error;
        const status = parseStatus(error.body);
        return {
          admitted: false,
          write: index,
          code: error.code,
          reason: String(status.reason ?? ''),
          message: String(status.message ?? ''),
          causes: ((status.details?.causes ?? []) as Cause[]).map(({ field, message, reason }) => ({
            field,
            message,
            reason,
          })),
        };
      }
    }
    return { admitted: true };
  }

  private async send(namespace: string, write: Write): Promise<unknown> {
    const at = { ...COORDINATES[write.resource], namespace };
    switch (write.verb) {
      case 'create':
        return this.custom.createNamespacedCustomObject({
          ...at,
          body: inNamespace(write.object, namespace),
        });
      case 'replace': {
        // A custom resource's update must name the version it replaces (kube-apiserver refuses it otherwise).
        const name = write.object.metadata.name as string;
        const stored = await this.custom.getNamespacedCustomObject({ ...at, name });
        const body = inNamespace(write.object, namespace);
        body.metadata.resourceVersion = stored.metadata.resourceVersion;
        return this.custom.replaceNamespacedCustomObject({ ...at, name, body });
      }
      case 'patch': {
        const options = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
        const request = { ...at, name: write.name, body: write.patch };
        return write.subresource === 'status'
          ? this.custom.patchNamespacedCustomObjectStatus(request, options)
          : this.custom.patchNamespacedCustomObject(request, options);
      }
    }
  }
}

function parseStatus(body: unknown): Json {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as Json;
    } catch {
      return { message: body };
    }
  }
  return (body ?? {}) as Json;
}
