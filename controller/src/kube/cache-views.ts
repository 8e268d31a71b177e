/**
 * What the controller's caches keep of each kind (controller-runtime's cache transform): every object
 * loses `metadata.managedFields` (server-side apply bookkeeping, never read) and has its repeated
 * short strings interned (string-table.ts); a Pod keeps only what the planner and the handlers read,
 * an Exporter loses the status fields nothing in the controller reads (`devices`, `statusMessage`,
 * condition messages), and a Secret keeps of its data only the credential `token` and, when it holds
 * more (a config Secret), a digest of the whole data: with thousands of instances these caches are
 * most of the controller's memory.
 *
 * Objects written by others (Exporters, Leases) may have odd shapes (a looser CRD): a view changes only
 * what has the expected shape and passes anything else through as it came, so the planner's wire
 * guards still see it.
 */
import { createHash } from 'node:crypto';
import type { PodObject, SecretObject } from './wire';
import type { WireObject } from './informer-contract';
import { isRecord, StringTable } from './string-table';

/** The table every cache interns into. */
export const CACHE_STRINGS = new StringTable();

type Json = Record<string, unknown>;

/** An object without `metadata.managedFields`; the object itself when it has none. */
export function withoutManagedFields<T extends WireObject>(object: T): T {
  const metadata = object.metadata as (WireObject['metadata'] & { managedFields?: unknown }) | undefined;
  if (metadata?.managedFields === undefined) return object;
  const { managedFields: _dropped, ...rest } = metadata;
  return { ...object, metadata: rest };
}

/** Metadata without managed fields, with namespace, label and annotation values and owners interned. */
function cachedMetadata(metadata: unknown, table: StringTable): unknown {
  if (!isRecord(metadata)) return metadata;
  const { managedFields: _dropped, ...kept } = metadata;
  if (kept.namespace !== undefined) kept.namespace = table.intern(kept.namespace);
  if (kept.labels !== undefined) kept.labels = table.internValues(kept.labels);
  if (kept.annotations !== undefined) kept.annotations = table.internValues(kept.annotations);
  if (Array.isArray(kept.ownerReferences)) {
    kept.ownerReferences = kept.ownerReferences.map((ref: unknown) =>
      isRecord(ref)
        ? {
            ...ref,
            apiVersion: table.intern(ref.apiVersion),
            kind: table.intern(ref.kind),
            name: table.intern(ref.name),
          }
        : ref,
    );
  }
  return kept;
}

/** Conditions with type, status and reason interned (and without messages when `dropMessages`). */
function cachedConditions(conditions: unknown, table: StringTable, dropMessages: boolean): unknown {
  if (!Array.isArray(conditions)) return conditions;
  return conditions.map((condition: unknown) => {
    if (!isRecord(condition)) return condition;
    const { message, ...rest } = condition;
    for (const key of ['type', 'status', 'reason'])
      if (rest[key] !== undefined) rest[key] = table.intern(rest[key]);
    return !dropMessages && message !== undefined ? { ...rest, message } : rest;
  });
}

/** The object with managed fields dropped and apiVersion, kind and metadata interned. */
export function compactObject<T extends WireObject>(object: T, table: StringTable = CACHE_STRINGS): T {
  const source = object as unknown as Json;
  const out: Json = { ...source };
  if (source.apiVersion !== undefined) out.apiVersion = table.intern(source.apiVersion);
  if (source.kind !== undefined) out.kind = table.intern(source.kind);
  if (source.metadata !== undefined) out.metadata = cachedMetadata(source.metadata, table);
  if (source.type !== undefined) out.type = table.intern(source.type); // a Secret's type
  return out as unknown as T;
}

/**
 * An Exporter as the controller reads it: everything but the status fields no reader uses — `devices`,
 * `statusMessage` and the conditions' messages (the planner reads type and status, the events nothing).
 */
export function exporterCacheView(object: WireObject, table: StringTable = CACHE_STRINGS): WireObject {
  const out = compactObject(object, table) as unknown as Json;
  if (!isRecord(out.status)) return out as WireObject;
  const { devices: _devices, statusMessage: _message, ...status } = out.status;
  if (status.conditions !== undefined) status.conditions = cachedConditions(status.conditions, table, true);
  if (status.endpoint !== undefined) status.endpoint = table.intern(status.endpoint);
  if (status.exporterStatus !== undefined) status.exporterStatus = table.intern(status.exporterStatus);
  out.status = status;
  return out as WireObject;
}

const POD_METADATA = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'creationTimestamp',
  'deletionTimestamp',
] as const;

function pick<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
  return out;
}

/** A Pod's condition the planner reads (when it turned Ready, for the end of a failed Pod). */
const POD_CONDITIONS_READ = new Set(['Ready']);

/**
 * What the controller reads of a Pod (the planner's `PodView`, plus the labels the handlers map to a set
 * and the metadata the informer needs): no spec, and of the status only phase, reason, message, start
 * time, the Ready condition and the containers that terminated (with their terminated state).
 */
export function podCacheView(object: WireObject, table: StringTable = CACHE_STRINGS): WireObject {
  const pod = object as PodObject;
  const status = pod.status;
  const kept: PodObject = {
    ...(pod.apiVersion !== undefined ? { apiVersion: table.intern(pod.apiVersion) } : {}),
    ...(pod.kind !== undefined ? { kind: table.intern(pod.kind) } : {}),
    metadata: cachedMetadata(pick(pod.metadata ?? {}, POD_METADATA), table) as PodObject['metadata'],
  };
  if (status) {
    const conditions = (status.conditions ?? [])
      .filter((c) => POD_CONDITIONS_READ.has(c.type))
      .map((c) => pick(c, ['type', 'status', 'lastTransitionTime'] as const));
    const terminated = (status.containerStatuses ?? [])
      .filter((c) => c.state?.terminated)
      .map((c) => ({ name: c.name, state: { terminated: c.state!.terminated } }));
    kept.status = {
      ...pick(status, ['phase', 'reason', 'message', 'startTime'] as const),
      ...(status.phase !== undefined ? { phase: table.intern(status.phase) } : {}),
      ...(conditions.length > 0
        ? {
            conditions: cachedConditions(conditions, table, true) as NonNullable<
              PodObject['status']
            >['conditions'],
          }
        : {}),
      ...(terminated.length > 0
        ? { containerStatuses: terminated as NonNullable<PodObject['status']>['containerStatuses'] }
        : {}),
    };
  }
  return kept as WireObject;
}

/** A Secret as the Secret cache holds it (`secretCacheView`). */
export type CachedSecret = SecretObject & {
  /** `secretDataDigest` of the Secret's whole `data`, when `data` held more than a `token`. */
  readonly dataDigest?: string;
};

/** The digest of a cached Secret's whole data (its own `data` is all of it when it has no digest). */
export function cachedSecretDigest(secret: CachedSecret): string {
  return secret.dataDigest ?? secretDataDigest(secret.data);
}

/**
 * A digest of a Secret's `data` (base64 values as the API server returns them), independent of key
 * order. The render memo compares a rendered config against the cached one with it (render-memo.ts).
 */
export function secretDataDigest(data: Readonly<Record<string, unknown>> | undefined): string {
  const hash = createHash('sha256');
  for (const key of Object.keys(data ?? {}).sort()) {
    const value = data![key];
    hash.update(key).update('\u0000');
    hash.update(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).update('\u0000');
  }
  return hash.digest('base64');
}

/**
 * What the controller reads of a Secret it keeps (informers.ts `keepSecret`): its metadata, the `token`
 * (a credential's, the only key a render reads) and, when `data` holds anything else (a config Secret:
 * ≈ 1.7 KB of base64 YAML), a digest of the whole data instead of it — the render memo finds drift by
 * comparing digests (render-memo.ts). `stringData` (which the API never returns) is dropped too.
 */
export function secretCacheView(object: WireObject, table: StringTable = CACHE_STRINGS): WireObject {
  const out = compactObject(object, table) as unknown as Json;
  const data = out.data;
  delete out.data;
  delete out.stringData;
  if (!isRecord(data)) return out as WireObject;
  if (typeof data.token === 'string') out.data = { token: data.token };
  if (Object.keys(data).some((key) => key !== 'token')) out.dataDigest = secretDataDigest(data);
  return out as WireObject;
}
