/**
 * Parses a request URL the way kube-apiserver does: `/api/v1/...` and `/apis/<group>/<version>/...`
 * name a resource (optionally in `namespaces/<ns>`, with an object name and a subresource); anything
 * else is a non-resource path (discovery, `/version`, `/healthz`). The verb follows from the method,
 * whether a name is given and the `watch` query parameter, as RBAC sees it.
 */
import type { Verb } from './counters';

export interface ResourceRoute {
  readonly type: 'resource';
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  /** Undefined for cluster-scoped resources and for lists/watches across namespaces. */
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
  readonly verb: Verb;
}

export interface NonResourceRoute {
  readonly type: 'nonResource';
  readonly path: string;
}

/** Discovery paths (`/api`, `/api/v1`, `/apis/g`, `/apis/g/v`) are non-resource routes. */
export type Route = ResourceRoute | NonResourceRoute;

/** Subresources of a namespace object, which the `namespaces/<ns>/<x>` form must not take for a resource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Routes `method` on `path` (already split from the query). Undefined for a resource path the API has
 * no verb for with this method (the server answers 405). Throws URIError on a malformed escape.
 */
export function route(method: string, path: string, query: URLSearchParams): Route | undefined {
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    [group, version, rest] = ['', parts[1], parts.slice(2)];
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  } else {
    return { type: 'nonResource', path: normalize(path) };
  }

  // The deprecated `/watch/` prefix form: same resource, always a watch.
  let watch = isTrue(query.get('watch'));
  if (rest[0] === 'watch') {
    watch = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) return { type: 'nonResource', path: normalize(path) };
  const [plural, name, subresource] = rest;
  const verb = verbOf(method, name !== undefined, watch);
  if (!verb) return undefined;
  return { type: 'resource', group, version, plural, namespace, name, subresource, verb };
}

function verbOf(method: string, named: boolean, watch: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return named ? undefined : 'create';
    case 'PUT':
      return named ? 'update' : undefined;
    case 'PATCH':
      return named ? 'patch' : undefined;
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/** `watch=true`, `watch=1` and a bare `watch` turn a GET into a watch, as in kube-apiserver. */
export function isTrue(value: string | null): boolean {
  return value !== null && (value === '' || value === '1' || value.toLowerCase() === 'true');
}

function normalize(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
