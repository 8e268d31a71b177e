/**
 * The patch formats of PATCH requests: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and
 * strategic merge patch, which the test cluster applies as a merge patch (lists are replaced
 * whole; its `$patch`-style directives are rejected rather than stored as fields).
 *
 * Errors follow the API server: a patch that cannot be decoded is 400 BadRequest; a JSON patch that
 * decodes but cannot be applied — a failed `test`, a missing path, an unknown op — is 422 Invalid, as
 * the API server answers (with a message that says which operation failed, where the API server says
 * only "the server rejected our request due to an error in our request").
 *
 * JSON patches apply as kube-apiserver applies them (evanphx/json-patch v4, measured on the real
 * server), where that library is laxer than RFC 6902: `replace` of a missing member of an object adds
 * it, `test` of a missing member passes for `null`, `copy` from a missing member copies `null`, an
 * operation without `value` carries `null`, and a path without its leading `/` loses its first
 * segment (`data/c` is `/c`; `spec` is refused).
 */
import { cloneJson, isJsonMap, jsonEqual, type JsonMap } from './json-values';
import { ApiError, type PatchType } from './types';

const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);
const unprocessable = (message: string) =>
  new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${message}`);

/**
 * RFC 7386: `null` removes a member, objects merge at every depth, anything else replaces. Iterative:
 * a patch may be nested as deep as the API server admits.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonMap(patch)) return cloneJson(patch);
  const root: JsonMap = isJsonMap(target) ? { ...target } : {};
  const pending: Array<readonly [JsonMap, JsonMap]> = [[root, patch]];
  while (pending.length > 0) {
    const [result, changes] = pending.pop()!;
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete result[key];
      else if (!isJsonMap(value)) result[key] = cloneJson(value);
      else {
        const merged: JsonMap = isJsonMap(result[key]) ? { ...(result[key] as JsonMap) } : {};
        result[key] = merged;
        pending.push([merged, value]);
      }
    }
  }
  return root;
}

type Operation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; path: string; from: string };

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

/**
 * Checks the shape of a JSON patch document: 400 when it is not a list of objects; an operation the
 * API server cannot apply (unknown op, no path, no `from`) is 422 there, as it is on kube-apiserver.
 * A missing `value` is `null`.
 */
function decodeJsonPatch(patch: unknown): Operation[] {
  if (!Array.isArray(patch)) throw badRequest('a JSON patch must be a list of operations');
  return patch.map((raw, i) => {
    if (!isJsonMap(raw)) throw badRequest(`JSON patch operation ${i} must be an object`);
    const { op, path, from } = raw;
    if (typeof op !== 'string' || !OPS.includes(op)) {
      throw unprocessable(
        `JSON patch operation ${i}: unknown op ${JSON.stringify(op)} (use ${OPS.join(', ')})`,
      );
    }
    if (typeof path !== 'string') {
      throw unprocessable(`JSON patch operation ${i} (${op}) needs a "path" string`);
    }
    if ((op === 'move' || op === 'copy') && typeof from !== 'string') {
      throw unprocessable(`JSON patch operation ${i} (${op}) needs a "from" string`);
    }
    if ((op === 'add' || op === 'replace' || op === 'test') && !('value' in raw)) {
      return { ...raw, value: null } as unknown as Operation;
    }
    return raw as unknown as Operation;
  });
}

/**
 * The reference tokens of a JSON pointer (RFC 6901). Like kube-apiserver, a pointer without its
 * leading `/` loses its first segment (`data/c` is `/c`), and one without any `/` is refused.
 */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.includes('/')) throw unprocessable(`JSON pointer "${pointer}" must start with "/"`);
  return pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(token: string, length: number, allowEnd: boolean, pointer: string): number {
  if (allowEnd && token === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw unprocessable(`"${token}" is not an array index in "${pointer}"`);
  const index = Number(token);
  if (index > (allowEnd ? length : length - 1))
    throw unprocessable(`index ${index} is out of bounds in "${pointer}"`);
  return index;
}

/** The container holding the last token of `pointer`, and that token. */
function locate(doc: unknown, pointer: string): { parent: unknown; key: string } {
  const path = tokens(pointer);
  let node = doc;
  for (const t of path.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(t, node.length, false, pointer)];
    else if (isJsonMap(node) && Object.prototype.hasOwnProperty.call(node, t)) node = node[t];
    else throw unprocessable(`path "${pointer}" does not exist`);
  }
  return { parent: node, key: path[path.length - 1] };
}

function get(doc: unknown, pointer: string): unknown {
  const found = lookup(doc, pointer);
  if (found === undefined) throw unprocessable(`path "${pointer}" does not exist`);
  return found;
}

/**
 * The value at `pointer`, or undefined when the last token names a missing member of an object that
 * exists (where kube-apiserver's JSON patch sees `null`); a missing parent or index still fails.
 */
function lookup(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) return parent[arrayIndex(key, parent.length, false, pointer)];
  if (isJsonMap(parent)) return Object.prototype.hasOwnProperty.call(parent, key) ? parent[key] : undefined;
  throw unprocessable(`path "${pointer}" does not exist`);
}

/** Adds `value` at `pointer`; returns the new document (a new root when the pointer is ""). */
function add(doc: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, true, pointer), 0, value);
  else if (isJsonMap(parent)) parent[key] = value;
  else throw unprocessable(`the parent of "${pointer}" is not an object or a list`);
  return doc;
}

function remove(doc: unknown, pointer: string): unknown {
  if (pointer === '') throw unprocessable('cannot remove the whole object');
  const { parent, key } = locate(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, false, pointer), 1);
  else if (isJsonMap(parent) && Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw unprocessable(`path "${pointer}" does not exist`);
  return doc;
}

/** RFC 6902 on a copy of `target`; every operation applies or none does. */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  const operations = decodeJsonPatch(patch);
  let doc = cloneJson(target);
  for (const operation of operations) {
    const { path } = operation;
    switch (operation.op) {
      case 'add':
        doc = add(doc, path, cloneJson(operation.value));
        break;
      case 'remove':
        doc = remove(doc, path);
        break;
      case 'replace':
        // A missing member of an object is added, as kube-apiserver does.
        if (lookup(doc, path) === undefined) doc = add(doc, path, cloneJson(operation.value));
        else
          doc =
            path === ''
              ? cloneJson(operation.value)
              : add(remove(doc, path), path, cloneJson(operation.value));
        break;
      case 'move': {
        if (path !== operation.from && path.startsWith(`${operation.from}/`)) {
          throw unprocessable(`cannot move "${operation.from}" into its own child "${path}"`);
        }
        const value = get(doc, operation.from);
        doc = add(remove(doc, operation.from), path, value);
        break;
      }
      case 'copy':
        // From a missing member of an object: null, as kube-apiserver copies it.
        doc = add(doc, path, cloneJson(lookup(doc, operation.from) ?? null));
        break;
      case 'test':
        if (!jsonEqual(lookup(doc, path) ?? null, operation.value)) {
          throw unprocessable(
            `test operation failed: the value at "${path}" is not ${JSON.stringify(operation.value)}`,
          );
        }
        break;
    }
  }
  return doc;
}

/** Strategic merge patch as a merge patch; its directives would be stored as fields, so they are refused. */
function assertNoDirectives(patch: unknown): void {
  const pending: Array<readonly [unknown, string]> = [[patch, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    if (Array.isArray(value)) value.forEach((item, i) => pending.push([item, `${path}[${i}]`]));
    if (!isJsonMap(value)) continue;
    for (const [key, member] of Object.entries(value)) {
      if (key.startsWith('$')) {
        throw badRequest(
          `strategic merge patch directive "${key}" at "${path || '.'}" is not supported by the test cluster (it applies strategic merge patches as merge patches); use a JSON patch`,
        );
      }
      pending.push([member, path ? `${path}.${key}` : key]);
    }
  }
}

/**
 * Applies a PATCH body of `type` to `target` and returns the patched copy. A string body is parsed as
 * JSON first.
 */
export function applyPatch(type: PatchType, target: unknown, patch: unknown): unknown {
  let body = patch;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch (err) {
      throw badRequest(`the patch is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (type === 'json') return applyJsonPatch(target, body);
  if (!isJsonMap(body)) throw badRequest(`a ${type} merge patch must be a JSON object`);
  if (type === 'strategic') assertNoDirectives(body);
  return applyMergePatch(cloneJson(target), body);
}
