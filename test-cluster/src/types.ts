/**
 * Shared shapes of the test cluster (SPEC §5): what the in-memory store holds, how resource types are
 * described, the errors it raises (rendered by the HTTP layer as Kubernetes `Status` bodies) and the
 * clock every simulator schedules on.
 */

/** Any stored object; `metadata` is ObjectMeta as the API server fills it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: {
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** A CEL/schema admission finding, rendered into the 422 `Status.details.causes`. */
export interface AdmissionCause {
  /** Kubernetes field path, e.g. `spec.minReplicas`. */
  field: string;
  message: string;
  /** Kubernetes' cause type (`FieldValueInvalid`, `FieldValueRequired`, ...); absent: `FieldValueInvalid`. */
  reason?: string;
}

/** How a write is admitted. */
export interface AdmitOptions {
  /** A write to the /status subresource: its schema check covers the status only. */
  readonly statusWrite?: boolean;
  /** The ObjectMeta causes found before: they are reported first and can keep the CEL rules from running. */
  readonly prior?: readonly AdmissionCause[];
}

/** Admission of one resource type: defaulting + structural validation + CEL (our CRDs only). */
export interface Admission {
  /**
   * Returns the defaulted object (a copy) and the causes of its refusal (not repeating `prior`); `old`
   * is set on update (transition rules).
   */
  admit(
    object: KubeObject,
    old?: KubeObject,
    options?: AdmitOptions,
  ): { object: KubeObject; causes: AdmissionCause[] };
  /** Paths of the fields of `object` its schema does not know (what pruning would drop). */
  unknownFields?(object: KubeObject): string[];
}

/** One REST resource the server serves. */
export interface ResourceType {
  /** `''` for the core group. */
  group: string;
  version: string;
  kind: string;
  listKind: string;
  /** Lower-case plural, the URL segment. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Present when the resource has a /status subresource (status is then isolated from the main resource). */
  statusSubresource: boolean;
  /**
   * Served from a CustomResourceDefinition, so kube-apiserver's custom-resource rules apply: an update
   * (PUT, or a patch that drops it) must carry `metadata.resourceVersion`, else 422 (built-in kinds
   * take one without: the last write wins); its etcd key is `/registry/<group>/<plural>/...`.
   */
  custom?: boolean;
  /** Present when the resource has a /scale subresource. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Only custom resources have admission (our CRDs); built-in kinds are stored as given. */
  admission?: Admission;
  /**
   * A built-in kind's top-level fields besides apiVersion, kind and metadata, for field validation
   * (field-validation.ts); a custom resource's schema says what it knows instead.
   */
  knownFields?: readonly string[];
}

/** `apiVersion` of a resource type: `v1` for core, `group/version` otherwise. */
export function apiVersionOf(rt: Pick<ResourceType, 'group' | 'version'>): string {
  return rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

/** HTTP status + Kubernetes `Status.reason` of a failed request. */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'Gone'
  | 'Expired'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Forbidden'
  | 'RequestEntityTooLarge'
  | 'Timeout'
  | 'UnsupportedMediaType';

/** Every failure the store or server raises; the HTTP layer turns it into a `Status` body. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: {
      name?: string;
      group?: string;
      kind?: string;
      causes?: { field?: string; message: string; reason?: string }[];
      retryAfterSeconds?: number;
    },
    /** The `Status`'s list metadata: the continue token of a 410 on an expired one. */
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The `Status` object a Kubernetes API server returns for this error. */
  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.listMeta ?? {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/**
 * Time for every simulator and the store: real by default; tests and the lab may scale it (a
 * speed-up factor) so simulated boot delays and lease durations pass faster than the wall clock.
 */
export interface Clock {
  /** Milliseconds since the epoch, on the simulated timeline. */
  now(): number;
  /** Runs `fn` after `ms` simulated milliseconds; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /**
   * A monotonic reading: moves with simulated time only, never when a machine's clock is set
   * (`skewedClock`). @default now()
   */
  elapsed?(): number;
}

/** Resource types the server knows: built-in kinds plus every CRD it was given. */
export interface ResourceRegistry {
  all(): ResourceType[];
  /** By URL segments; `group` is `''` for core. */
  get(group: string, version: string, plural: string): ResourceType | undefined;
  /** By `apiVersion` (`v1`, `jumpstarter.dev/v1alpha1`) and kind. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined;
}

export interface ListOptions {
  /** Kubernetes string form: `a=b,c!=d,e in (x,y),f notin (z),g,!h`. */
  labelSelector?: string;
  /** `metadata.name=x`, `metadata.namespace=y` (`=`, `==`, `!=`), comma-separated. */
  fieldSelector?: string;
}

/** A list's paging (see list-pages.ts): at most `limit` items, from where `continue` left off. */
export interface PagedListOptions extends ListOptions {
  /** At most this many items; undefined or < 1: all. */
  limit?: number;
  /** The `continue` token of the previous page. */
  continue?: string;
}

/** One page of a list (the whole list when no limit was given). */
export interface ObjectList {
  items: KubeObject[];
  /** The snapshot's version: the same on every page of one list. */
  resourceVersion: string;
  /** The token of the next page; absent on the last page. */
  continue?: string;
  remainingItemCount?: number;
}

export interface WatchOptions extends ListOptions {
  /** Deliver events after this version; absent or `0`: synthetic ADDED for current objects first. */
  resourceVersion?: string;
  allowBookmarks?: boolean;
}

export type PatchType = 'merge' | 'json' | 'strategic';
export type Subresource = 'status' | 'scale';

export interface DeleteOptions {
  /** @default Background, as for custom resources */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * The API server's storage semantics, in process. Every method throws `ApiError` on failure.
 * Namespaced resources need a namespace; cluster-scoped ones take `undefined`.
 */
export interface ObjectStore {
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  create(rt: ResourceType, namespace: string | undefined, object: KubeObject): KubeObject;
  /** With `scale`, returns an `autoscaling/v1` Scale built from the scale paths. */
  get(rt: ResourceType, namespace: string | undefined, name: string, subresource?: Subresource): KubeObject;
  /** Pages with `limit`/`continue`; a token whose snapshot left the event window is 410 Expired. */
  list(rt: ResourceType, namespace: string | undefined, options?: PagedListOptions): ObjectList;
  /** Optimistic concurrency: a stale `metadata.resourceVersion` → 409 Conflict; absent → last write wins. */
  update(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    object: KubeObject,
    subresource?: Subresource,
  ): KubeObject;
  patch(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    subresource?: Subresource,
  ): KubeObject;
  /** Sets `deletionTimestamp` while finalizers remain; otherwise removes; dependents follow (GC). */
  delete(rt: ResourceType, namespace: string | undefined, name: string, options?: DeleteOptions): KubeObject;
  /** Throws 410 Gone (reason Expired) when `resourceVersion` is older than the kept event window. */
  watch(
    rt: ResourceType,
    namespace: string | undefined,
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
  ): { stop(): void };
  /** The latest resourceVersion issued. */
  resourceVersion(): string;
}
