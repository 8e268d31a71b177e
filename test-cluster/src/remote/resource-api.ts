/**
 * The REST calls a remote port makes for each simulated kind, through client-node: the Jumpstarter
 * kinds with `CustomObjectsApi`, Pods and Secrets with `CoreV1Api`. Every object comes back as wire
 * JSON (client-node's typed core clients turn timestamps into `Date`s; a JSON round trip turns them
 * back) with its `apiVersion` and `kind` (items of a built-in list carry neither). Patches are JSON
 * merge patches, sent with their Content-Type. Every failure is an `ApiError` with the server's code,
 * reason and message; a failure without an HTTP answer (a refused or reset connection) is passed on.
 */
import {
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import { Plurals } from 'virtual-exporters/internal';
import { API_VERSIONS, type SimulatedKind } from '../port';
import { ApiError, type KubeObject, type StatusReason } from '../types';

export interface ObjectListPage {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
}

/** One kind's REST calls. `namespace` undefined means every namespace (lists only). */
export interface ResourceApi {
  readonly kind: SimulatedKind;
  /** The collection's path, for watches. */
  path(namespace?: string): string;
  list(namespace?: string): Promise<ObjectListPage>;
  get(namespace: string, name: string): Promise<KubeObject>;
  create(namespace: string, object: KubeObject): Promise<KubeObject>;
  /** A JSON merge patch of the object or of its status subresource. */
  patch(namespace: string, name: string, patch: object, subresource?: 'status'): Promise<KubeObject>;
}

const REASONS: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The `ApiError` of a failed client-node call (its `code` and the `Status` body), else `error` itself. */
export function toApiError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const { code, statusCode, body } = (error ?? {}) as {
    code?: unknown;
    statusCode?: unknown;
    body?: unknown;
  };
  const status = typeof code === 'number' ? code : typeof statusCode === 'number' ? statusCode : undefined;
  if (status === undefined) return error;
  let parsed: { message?: unknown; reason?: unknown; details?: unknown } = {};
  try {
    parsed = (typeof body === 'string' ? JSON.parse(body) : (body ?? {})) as typeof parsed;
  } catch {
    // not a Status: keep the defaults
  }
  const reason = typeof parsed.reason === 'string' ? parsed.reason : (REASONS[status] ?? 'InternalError');
  const message =
    typeof parsed.message === 'string'
      ? parsed.message
      : error instanceof Error
        ? error.message
        : String(error);
  const details = typeof parsed.details === 'object' && parsed.details !== null ? parsed.details : undefined;
  return new ApiError(status, reason as StatusReason, message, details as ApiError['details']);
}

/** The object with its `apiVersion` and `kind` (items of a built-in list carry neither). */
export function typed(kind: SimulatedKind, object: KubeObject): KubeObject {
  if (object.apiVersion !== undefined && object.kind !== undefined) return object;
  return { ...object, apiVersion: object.apiVersion ?? API_VERSIONS[kind], kind: object.kind ?? kind };
}

/** Wire JSON (timestamps as strings), typed. */
function wire(kind: SimulatedKind, object: unknown): KubeObject {
  return typed(kind, JSON.parse(JSON.stringify(object)) as KubeObject);
}

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw toApiError(error);
  }
}

const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function customResource(kubeConfig: KubeConfig, kind: 'Exporter' | 'Lease', plural: string): ResourceApi {
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  const [group, version] = API_VERSIONS[kind].split('/');
  const at = { group, version, plural };
  return {
    kind,
    path: (namespace) =>
      namespace === undefined
        ? `/apis/${group}/${version}/${plural}`
        : `/apis/${group}/${version}/namespaces/${encodeURIComponent(namespace)}/${plural}`,
    async list(namespace) {
      const list = (await call(() =>
        namespace === undefined
          ? api.listClusterCustomObject(at)
          : api.listNamespacedCustomObject({ ...at, namespace }),
      )) as { items?: unknown[]; metadata?: { resourceVersion?: string } };
      return {
        items: (list.items ?? []).map((item) => wire(kind, item)),
        resourceVersion: list.metadata?.resourceVersion ?? '',
      };
    },
    get: async (namespace, name) =>
      wire(kind, await call(() => api.getNamespacedCustomObject({ ...at, namespace, name }))),
    create: async (namespace, body) =>
      wire(kind, await call(() => api.createNamespacedCustomObject({ ...at, namespace, body }))),
    patch: async (namespace, name, body, subresource) =>
      wire(
        kind,
        await call(() =>
          subresource === 'status'
            ? api.patchNamespacedCustomObjectStatus({ ...at, namespace, name, body }, mergePatch())
            : api.patchNamespacedCustomObject({ ...at, namespace, name, body }, mergePatch()),
        ),
      ),
  };
}

function pods(kubeConfig: KubeConfig): ResourceApi {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  return {
    kind: 'Pod',
    path: (namespace) =>
      namespace === undefined ? '/api/v1/pods' : `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`,
    async list(namespace) {
      const list = await call(() =>
        namespace === undefined ? core.listPodForAllNamespaces() : core.listNamespacedPod({ namespace }),
      );
      return {
        items: list.items.map((item) => wire('Pod', item)),
        resourceVersion: list.metadata?.resourceVersion ?? '',
      };
    },
    get: async (namespace, name) =>
      wire('Pod', await call(() => core.readNamespacedPod({ namespace, name }))),
    create: async (namespace, body) =>
      wire('Pod', await call(() => core.createNamespacedPod({ namespace, body: body as object }))),
    patch: async (namespace, name, body, subresource) =>
      wire(
        'Pod',
        await call(() =>
          subresource === 'status'
            ? core.patchNamespacedPodStatus({ namespace, name, body }, mergePatch())
            : core.patchNamespacedPod({ namespace, name, body }, mergePatch()),
        ),
      ),
  };
}

function secrets(kubeConfig: KubeConfig): ResourceApi {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  return {
    kind: 'Secret',
    path: (namespace) =>
      namespace === undefined
        ? '/api/v1/secrets'
        : `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`,
    async list(namespace) {
      const list = await call(() =>
        namespace === undefined
          ? core.listSecretForAllNamespaces()
          : core.listNamespacedSecret({ namespace }),
      );
      return {
        items: list.items.map((item) => wire('Secret', item)),
        resourceVersion: list.metadata?.resourceVersion ?? '',
      };
    },
    get: async (namespace, name) =>
      wire('Secret', await call(() => core.readNamespacedSecret({ namespace, name }))),
    create: async (namespace, body) =>
      wire('Secret', await call(() => core.createNamespacedSecret({ namespace, body: body as object }))),
    async patch(namespace, name, body, subresource) {
      if (subresource === 'status') throw new Error('Secrets have no status subresource');
      return wire(
        'Secret',
        await call(() => core.patchNamespacedSecret({ namespace, name, body }, mergePatch())),
      );
    },
  };
}

/** The REST calls of every simulated kind, as `kubeConfig`'s user. */
export function resourceApis(kubeConfig: KubeConfig): Readonly<Record<SimulatedKind, ResourceApi>> {
  return {
    Exporter: customResource(kubeConfig, 'Exporter', Plurals.Exporter),
    Lease: customResource(kubeConfig, 'Lease', Plurals.Lease),
    Pod: pods(kubeConfig),
    Secret: secrets(kubeConfig),
  };
}
