/**
 * Template revisions: each instance records the hash of what it was built from, so the
 * controller can tell outdated instances from current ones after any change, including a restart.
 */
import { createHash } from 'node:crypto';
import type { ExporterTemplate, Images, JsonObject, Scheduling } from '../api';
import { assertNestingWithin } from './depth';
import { isPlainObject } from './plain-object';

/**
 * JSON with object keys sorted at every depth, so equal data gives equal text whatever the key
 * order. Follows JSON.stringify otherwise: members whose value is undefined (or a function) are left
 * out, such values in lists and non-finite numbers become null. Data nested deeper than MAX_WALK_DEPTH
 * (depth.ts) throws a NestingTooDeepError.
 */
export function canonicalJson(value: unknown): string {
  assertNestingWithin(value, 'the data to serialise');
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => sortKeys(item));
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // defineProperty so a `__proto__` key from parsed JSON is kept as data, never as a prototype.
    Object.defineProperty(sorted, key, { value: sortKeys(value[key]), enumerable: true, writable: true });
  }
  return sorted;
}

/** What an instance is built from: the set's template and the effective provisioning inputs. */
export interface RevisionInputs {
  readonly template?: ExporterTemplate;
  /** The merged parameters (class under set). */
  readonly parameters?: JsonObject;
  /** The effective images (set over class). */
  readonly images?: Images;
  /** The class's scheduling. */
  readonly scheduling?: Scheduling;
}

/** Length of a revision: short enough for a label value, long enough to never collide in practice. */
export const REVISION_LENGTH = 10;

/**
 * A short stable hash (first 10 hex digits of SHA-256 over the canonical JSON) of the inputs. It changes
 * when any input changes and not when only key order does. Absent and `{}` inputs hash differently;
 * callers that want them equal should normalise first.
 */
export function templateRevision(inputs: RevisionInputs): string {
  const { template, parameters, images, scheduling } = inputs;
  const text = canonicalJson({ template, parameters, images, scheduling });
  return createHash('sha256').update(text).digest('hex').slice(0, REVISION_LENGTH);
}
