/**
 * A typed view of client-node's `CustomObjectsApi` for one kind (ExporterSets, classes, Exporters,
 * Jumpstarter Leases): the generated API returns `any`, this says what comes back and fixes the
 * group/version/plural once. Objects are wire JSON, as the API server sent them.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { patchCustomObject, patchCustomObjectStatus, type Patch } from './patch';
import type { ApiResource } from './resources';

export interface ObjectList<T> {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly items: T[];
}

export interface DeleteOptions {
  /** Delete only this incarnation of the object (a precondition: 409 if the name was reused). */
  readonly uid?: string;
  /** Delete only if unchanged since this version (409 otherwise). */
  readonly resourceVersion?: string;
  /** @default the server's (Background for custom resources) */
  readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
}

export class CustomObjectClient<T> {
  constructor(
    readonly api: CustomObjectsApi,
    readonly resource: ApiResource,
  ) {}

  private get coordinates() {
    const { group, version, plural } = this.resource;
    return { group, version, plural };
  }

  /** Lists `namespace`, or all namespaces when it is undefined. */
  async list(namespace?: string, labelSelector?: string): Promise<ObjectList<T>> {
    const selector = labelSelector === undefined ? {} : { labelSelector };
    return (await (namespace === undefined
      ? this.api.listClusterCustomObject({ ...this.coordinates, ...selector })
      : this.api.listNamespacedCustomObject({
          ...this.coordinates,
          namespace,
          ...selector,
        }))) as ObjectList<T>;
  }

  async get(namespace: string, name: string): Promise<T> {
    return (await this.api.getNamespacedCustomObject({ ...this.coordinates, namespace, name })) as T;
  }

  async create(namespace: string, body: T): Promise<T> {
    return (await this.api.createNamespacedCustomObject({ ...this.coordinates, namespace, body })) as T;
  }

  patch(namespace: string, name: string, patch: Patch): Promise<T> {
    return patchCustomObject<T>(this.api, this.resource, namespace, name, patch);
  }

  /** Patches the `/status` subresource. */
  patchStatus(namespace: string, name: string, patch: Patch): Promise<T> {
    return patchCustomObjectStatus<T>(this.api, this.resource, namespace, name, patch);
  }

  async delete(namespace: string, name: string, options: DeleteOptions = {}): Promise<void> {
    const preconditions = {
      ...(options.uid !== undefined ? { uid: options.uid } : {}),
      ...(options.resourceVersion !== undefined ? { resourceVersion: options.resourceVersion } : {}),
    };
    await this.api.deleteNamespacedCustomObject({
      ...this.coordinates,
      namespace,
      name,
      ...(options.propagationPolicy !== undefined ? { propagationPolicy: options.propagationPolicy } : {}),
      ...(Object.keys(preconditions).length > 0 ? { body: { preconditions } } : {}),
    });
  }
}
