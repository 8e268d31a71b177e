/**
 * A typed view of client-node's `CustomObjectsApi` for one kind (ExporterSets, classes, Exporters,
 * Jumpstarter Leases): the generated API returns `any`, this says what comes back and fixes the
 * group/version/plural once. Objects are wire JSON, as the API server sent them.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { patchCustomObject, patchCustomObjectStatus, type Patch } from './patch';
import type { ApiResource } from './resources';

export interface ObjectList<T> {
  /** `continue`: the token of the next page, when the list was asked for in pages and more follow. */
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: T[];
}

/** One page of a list: at most `limit` items, after the page whose `continue` token is given. */
export interface ListPageRequest {
  readonly limit?: number;
  readonly continue?: string;
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

  /** Lists `namespace`, or all namespaces when it is undefined; one page of it when `page` is given. */
  async list(namespace?: string, labelSelector?: string, page: ListPageRequest = {}): Promise<ObjectList<T>> {
    const selector = {
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(page.limit !== undefined ? { limit: page.limit } : {}),
      ...(page.continue !== undefined ? { _continue: page.continue } : {}),
    };
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
