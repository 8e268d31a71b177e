/**
 * Field validation of write requests, as kube-apiserver does it (the `fieldValidation` query
 * parameter): fields the type does not know and fields given twice in the JSON body are refused with
 * 400 under `Strict`, reported in `Warning` headers under `Warn` (the API server's default, which
 * kubectl shows), and let through silently under `Ignore`. Unknown means: not in a custom resource's
 * structural schema (what pruning would drop; `x-kubernetes-preserve-unknown-fields` keeps anything),
 * not a field of ObjectMeta under `metadata`, and for the built-in kinds the test cluster serves, not
 * one of the kind's top-level fields (deeper fields of built-in kinds are not checked).
 *
 * The same pass over the body text finds JSON nested deeper than Go's decoder reads (400).
 */
import { badRequest } from './api-errors';
import { isJsonMap } from './json-values';
import { MAX_JSON_DEPTH } from './limits';
import type { KubeObject, ResourceType } from './types';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
const DIRECTIVES: readonly FieldValidation[] = ['Ignore', 'Warn', 'Strict'];

/** The request's directive; `fallback` when it sends none (kube-apiserver's default is Warn). */
export function fieldValidationOf(query: URLSearchParams, fallback: FieldValidation): FieldValidation {
  const given = query.get('fieldValidation');
  if (given === null || given === '') return fallback;
  const directive = DIRECTIVES.find((d) => d.toLowerCase() === given.toLowerCase());
  if (directive) return directive;
  throw badRequest(
    `fieldValidation: Unsupported value: ${JSON.stringify(given)}: supported values: ${DIRECTIVES.map((d) => `"${d}"`).join(', ')}`,
  );
}

const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
const TYPE_FIELDS = ['apiVersion', 'kind', 'metadata'];

/** Paths of the fields of `object` that `rt` does not know. */
export function unknownFields(rt: ResourceType, object: KubeObject): string[] {
  const unknown: string[] = [];
  if (isJsonMap(object.metadata)) {
    for (const key of Object.keys(object.metadata)) {
      if (!OBJECT_META_FIELDS.has(key)) unknown.push(`metadata.${key}`);
    }
  }
  if (rt.admission?.unknownFields) unknown.push(...rt.admission.unknownFields(object));
  else if (rt.knownFields) {
    for (const key of Object.keys(object)) {
      if (!TYPE_FIELDS.includes(key) && !rt.knownFields.includes(key)) unknown.push(key);
    }
  }
  return unknown;
}

/** What the body's text says beyond its value: fields given twice, by path. */
export interface JsonText {
  readonly value: unknown;
  readonly duplicates: readonly string[];
}

interface Frame {
  readonly keys?: Set<string>;
  /** The current member's key (objects) or index (lists). */
  at: string | number;
  expectKey: boolean;
}

function pathOf(frames: readonly Frame[], key: string): string {
  let path = '';
  for (const frame of frames.slice(0, -1)) {
    path += typeof frame.at === 'number' ? `[${frame.at}]` : path ? `.${frame.at}` : frame.at;
  }
  return path ? `${path}.${key}` : key;
}

/**
 * Parses a JSON body as the API server's decoder reads it: 400 when it is not JSON or is nested more
 * than MAX_JSON_DEPTH levels; keys given twice in one object are returned (JSON.parse keeps the last,
 * as Go's decoder does). Iterative: no body can overflow a stack here.
 */
export function parseJsonBody(text: string): JsonText {
  const frames: Frame[] = [];
  const duplicates: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const frame = frames[frames.length - 1];
      if (frame?.keys && frame.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1)) as string;
        } catch {
          break; // malformed: JSON.parse below says where
        }
        if (frame.keys.has(key)) duplicates.push(pathOf(frames, key));
        frame.keys.add(key);
        frame.at = key;
        frame.expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      if (frames.length >= MAX_JSON_DEPTH) {
        throw badRequest(
          `the request body is not valid JSON: exceeded max depth (at most ${MAX_JSON_DEPTH} nested objects and lists)`,
        );
      }
      frames.push(c === '{' ? { keys: new Set(), at: '', expectKey: true } : { at: 0, expectKey: false });
    } else if (c === '}' || c === ']') {
      frames.pop();
    } else if (c === ',') {
      const frame = frames[frames.length - 1];
      if (frame?.keys) frame.expectKey = true;
      else if (frame) frame.at = (frame.at as number) + 1;
    }
  }
  try {
    return { value: JSON.parse(text) as unknown, duplicates };
  } catch (error) {
    throw badRequest(`the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The problems of a write under field validation, worded as kube-apiserver words them. */
export function fieldProblems(unknown: readonly string[], duplicates: readonly string[]): string[] {
  return [
    ...unknown.map((path) => `unknown field ${JSON.stringify(path)}`),
    ...duplicates.map((path) => `duplicate field ${JSON.stringify(path)}`),
  ];
}

/** The 400 a Strict request with `problems` gets. */
export function strictDecodingError(rt: ResourceType, problems: readonly string[]): Error {
  return badRequest(
    `${rt.kind} in version "${rt.version}" cannot be handled as a ${rt.kind}: strict decoding error: ${problems.join(', ')}`,
  );
}

/** One `Warning` header value per problem (RFC 7234 warn-code 299, as kube-apiserver sends them). */
export function warningHeaders(problems: readonly string[]): string[] {
  return problems.map((problem) => `299 - ${JSON.stringify(problem)}`);
}
