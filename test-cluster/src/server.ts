/**
 * The HTTP face of the test cluster: a `node:http` server on 127.0.0.1 that speaks the Kubernetes REST
 * API over an `ObjectStore` — discovery, get/list/watch, create, update, patch (merge, JSON, strategic
 * as merge), delete and deletecollection, the status and scale subresources — with `Status` error
 * bodies, bearer-token identities, request counters, fault injection and request hooks (a test's code
 * run before a matching request is served, request-hooks.ts). Storage semantics
 * (versions, conflicts, admission, finalizers, GC, selectors, checking a body against its URL) belong
 * to the store; this layer routes, parses bodies and query parameters, and renders results.
 *
 * Lists page with `limit` and `continue` (one snapshot per list, see list-pages.ts). Write requests get
 * field validation (field-validation.ts) and the API server's size and depth limits (limits.ts).
 *
 * Deliberate gaps: `dryRun` is refused with 400 (so a caller relying on it notices), server-side apply is 415, protobuf and YAML bodies
 * are 415, `/openapi/*` is 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invalid, invalidCause } from './api-errors';
import { RequestCounters, type RequestAttributes } from './counters';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions, SERVER_VERSION } from './discovery';
import { FaultInjector } from './faults';
import {
  fieldProblems,
  fieldValidationOf,
  parseJsonBody,
  strictDecodingError,
  unknownFields,
  warningHeaders,
  type FieldValidation,
} from './field-validation';
import { isTrue, route, type ResourceRoute } from './http-route';
import { stringifyJson } from './json-values';
import { ANONYMOUS_IDENTITY, identityOfToken } from './kubeconfig';
import { MAX_REQUEST_BODY_BYTES } from './limits';
import { RequestHooks } from './request-hooks';
import {
  ApiError,
  apiVersionOf,
  type AdmissionCause,
  type DeleteOptions,
  type KubeObject,
  type ObjectStore,
  type PatchType,
  type ResourceType,
  type Subresource,
} from './types';
import { serveWatch, withTypeMeta, type WatchStream } from './watch-stream';

export interface ApiServerOptions {
  readonly store: ObjectStore;
  /** @default a new RequestCounters */
  readonly counters?: RequestCounters;
  /** @default a new FaultInjector (seed 1) */
  readonly faults?: FaultInjector;
  /** @default new RequestHooks() */
  readonly hooks?: RequestHooks;
  /**
   * A watch without `timeoutSeconds` ends after a random time between this and twice this (real
   * seconds), as kube-apiserver spreads its watch timeouts.
   * @default 30
   */
  readonly watchTimeoutSeconds?: number;
  /** @default 0 (an ephemeral port) */
  readonly port?: number;
  /**
   * The field validation of write requests that send no `fieldValidation` parameter; `Strict` makes
   * every unknown or duplicate field a 400, to prove a client sends none.
   * @default 'Warn' (as kube-apiserver)
   */
  readonly fieldValidation?: FieldValidation;
}

export interface ApiServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly counters: RequestCounters;
  readonly faults: FaultInjector;
  readonly hooks: RequestHooks;
  /** Ends open watches, closes every connection and stops listening. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json';
const PATCH_TYPES: Record<string, PatchType> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
};

/** Starts the API server on 127.0.0.1. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const counters = options.counters ?? new RequestCounters();
  const faults = options.faults ?? new FaultInjector();
  const hooks = options.hooks ?? new RequestHooks();
  const context: HandlerContext = {
    store: options.store,
    counters,
    faults,
    hooks,
    watchTimeoutMs: (options.watchTimeoutSeconds ?? 30) * 1000,
    fieldValidation: options.fieldValidation ?? 'Warn',
    watches: new Set(),
    sleeps: new Set(),
    serverAddress: '',
    closed: false,
  };
  const server = createServer((req, res) => {
    handle(context, req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) sendError(res, error);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  context.serverAddress = `127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counters,
    faults,
    hooks,
    close() {
      closing ??= new Promise<void>((resolve) => {
        context.closed = true;
        for (const watch of context.watches) watch.close();
        for (const wake of context.sleeps) wake();
        server.close(() => resolve());
        // Let the ends of the watch streams reach the sockets before cutting what is left.
        setImmediate(() => server.closeAllConnections());
      });
      return closing;
    },
  };
}

interface HandlerContext {
  readonly store: ObjectStore;
  readonly counters: RequestCounters;
  readonly faults: FaultInjector;
  readonly hooks: RequestHooks;
  readonly watchTimeoutMs: number;
  readonly fieldValidation: FieldValidation;
  /** Open watch streams, ended on close. */
  readonly watches: Set<WatchStream>;
  /** Pending latency sleeps, cut short on close. */
  readonly sleeps: Set<() => void>;
  serverAddress: string;
  /** Set by close(): requests still waiting out injected latency are dropped, not served. */
  closed: boolean;
}

async function handle(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://test-cluster');
  const identity = authenticate(req.headers.authorization);
  if (identity === undefined) {
    sendJson(res, 401, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    return;
  }
  const method = req.method ?? 'GET';
  let target: ReturnType<typeof route>;
  try {
    target = route(method, url.pathname, url.searchParams);
  } catch {
    sendError(res, new ApiError(400, 'BadRequest', `malformed URL path: ${url.pathname}`));
    return;
  }
  if (target === undefined) {
    sendError(res, methodNotAllowed());
    return;
  }
  if (target.type === 'nonResource') {
    serveNonResource(ctx, res, method, target.path, identity);
    return;
  }

  const attrs: RequestAttributes = {
    identity,
    verb: target.verb,
    group: target.group,
    version: target.version,
    resource: target.plural,
    subresource: target.subresource ?? '',
    namespace: target.namespace ?? '',
    name: target.name ?? '',
    path: '',
  };
  const record = (code: number) => ctx.counters.record(attrs, code);
  const end = ctx.counters.begin(attrs);
  res.once('close', end);
  try {
    const delay = ctx.faults.latencyFor(attrs);
    if (delay > 0) await sleep(ctx, delay);
    await ctx.hooks.runBefore(attrs);
    if (ctx.closed) {
      res.destroy();
      return;
    }
    const injected = ctx.faults.errorFor(attrs);
    if (injected) throw injected;
    const type = resolveType(ctx.store, target);
    if (target.verb === 'watch') {
      serveResourceWatch(ctx, res, target, type, url.searchParams, attrs);
      return;
    }
    const body = await readBody(req);
    const fields: FieldCheck = {
      mode: fieldValidationOf(url.searchParams, ctx.fieldValidation),
      warnings: [],
    };
    const { code, object } = serveResource(ctx.store, target, type, url.searchParams, req, body, fields);
    record(code);
    sendJson(res, code, object, fields.warnings.length > 0 ? { Warning: fields.warnings } : {});
  } catch (error) {
    record(error instanceof ApiError ? error.code : 500);
    sendError(res, error);
  }
}

/** Maps the `Authorization` header to an identity; undefined for a token the cluster never issued. */
function authenticate(header: string | undefined): string | undefined {
  if (!header) return ANONYMOUS_IDENTITY;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? identityOfToken(match[1]) : undefined;
}

function serveNonResource(
  ctx: HandlerContext,
  res: ServerResponse,
  method: string,
  path: string,
  identity: string,
): void {
  const registry = ctx.store.registry;
  const parts = path.split('/').filter(Boolean);
  let body: unknown;
  if (path === '/api') body = apiVersions(ctx.serverAddress);
  else if (path === '/apis') body = apiGroupList(registry);
  else if (parts[0] === 'api' && parts.length === 2) body = apiResourceList(registry, '', parts[1]);
  else if (parts[0] === 'apis' && parts.length === 2) body = apiGroupDocument(registry, parts[1]);
  else if (parts[0] === 'apis' && parts.length === 3) body = apiResourceList(registry, parts[1], parts[2]);
  else if (path === '/version') body = SERVER_VERSION;
  else if (path === '/healthz' || path === '/livez' || path === '/readyz') body = 'ok';
  const key = {
    identity,
    verb: 'get',
    group: '',
    resource: '',
    subresource: '',
    namespace: '',
    path,
  } as const;
  const error =
    body === undefined
      ? new ApiError(404, 'NotFound', 'the server could not find the requested resource')
      : method !== 'GET'
        ? methodNotAllowed()
        : undefined;
  ctx.counters.record(key, error?.code ?? 200);
  if (error) sendError(res, error);
  else if (typeof body === 'string') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(body);
  } else sendJson(res, 200, body);
}

/** The resource type a route names, after checking scope and subresource against it. */
function resolveType(store: ObjectStore, target: ResourceRoute): ResourceType {
  const type = store.registry.get(target.group, target.version, target.plural);
  if (!type || (!type.namespaced && target.namespace !== undefined)) {
    throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  }
  if (
    type.namespaced &&
    target.namespace === undefined &&
    target.verb !== 'list' &&
    target.verb !== 'watch'
  ) {
    throw methodNotAllowed();
  }
  if (target.subresource !== undefined) {
    const known =
      (target.subresource === 'status' && type.statusSubresource) ||
      (target.subresource === 'scale' && type.scale !== undefined);
    if (!known) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    if (!['get', 'update', 'patch'].includes(target.verb)) throw methodNotAllowed();
  }
  return type;
}

/** A write's field validation directive, and the warnings it collects under Warn. */
interface FieldCheck {
  readonly mode: FieldValidation;
  readonly warnings: string[];
}

/** Refuses (Strict) or warns about (Warn) the unknown and duplicate fields of a write. */
function checkFields(
  type: ResourceType,
  object: KubeObject | undefined,
  duplicates: readonly string[],
  fields: FieldCheck,
): void {
  if (fields.mode === 'Ignore') return;
  const problems = fieldProblems(object ? unknownFields(type, object) : [], duplicates);
  if (problems.length === 0) return;
  if (fields.mode === 'Strict') throw strictDecodingError(type, problems);
  fields.warnings.push(...warningHeaders(problems));
}

function serveResource(
  store: ObjectStore,
  target: ResourceRoute,
  type: ResourceType,
  query: URLSearchParams,
  req: IncomingMessage,
  body: Buffer,
  fields: FieldCheck,
): { code: number; object: unknown } {
  const { namespace } = target;
  const name = target.name ?? '';
  const subresource = target.subresource as Subresource | undefined;
  if (query.get('dryRun')) {
    throw new ApiError(
      400,
      'BadRequest',
      'dryRun is not supported by the test cluster; send the request without it',
    );
  }
  switch (target.verb) {
    case 'get':
      return { code: 200, object: withTypeMeta(store.get(type, namespace, name, subresource), type) };
    case 'list': {
      const list = store.list(type, namespace, { ...selectors(query), ...paging(query) });
      return {
        code: 200,
        object: {
          kind: type.listKind,
          apiVersion: apiVersionOf(type),
          metadata: {
            resourceVersion: list.resourceVersion,
            ...(list.continue !== undefined ? { continue: list.continue } : {}),
            ...(list.remainingItemCount !== undefined ? { remainingItemCount: list.remainingItemCount } : {}),
          },
          items: list.items.map((item) => withTypeMeta(item, type)),
        },
      };
    }
    case 'create': {
      const { object, duplicates } = objectBody(req, body);
      checkFields(type, object, duplicates, fields);
      return { code: 201, object: withTypeMeta(store.create(type, namespace, object), type) };
    }
    case 'update': {
      const { object, duplicates } = objectBody(req, body);
      checkFields(type, subresource === 'scale' ? undefined : object, duplicates, fields);
      return {
        code: 200,
        object: withTypeMeta(store.update(type, namespace, name, object, subresource), type),
      };
    }
    case 'patch': {
      const contentType = mediaType(req);
      const patchType = PATCH_TYPES[contentType];
      if (!patchType) {
        throw new ApiError(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - accepted media types include: ${Object.keys(PATCH_TYPES).join(', ')}`,
        );
      }
      const { value: patch, duplicates } = parseJson(body);
      if (patchType === 'json' ? !Array.isArray(patch) : !isObject(patch)) {
        throw new ApiError(
          400,
          'BadRequest',
          `a ${contentType} patch must be a JSON ${patchType === 'json' ? 'array' : 'object'}`,
        );
      }
      // A merge patch has the object's shape, so its fields are checked; a JSON patch's operations are not.
      const patchObject = patchType !== 'json' && subresource !== 'scale' ? (patch as KubeObject) : undefined;
      checkFields(type, patchObject, duplicates, fields);
      return {
        code: 200,
        object: withTypeMeta(store.patch(type, namespace, name, patchType, patch, subresource), type),
      };
    }
    case 'delete':
      return {
        code: 200,
        object: withTypeMeta(store.delete(type, namespace, name, deleteOptions(query, body)), type),
      };
    case 'deletecollection': {
      const options = deleteOptions(query, body);
      for (const item of store.list(type, namespace, selectors(query)).items) {
        try {
          store.delete(type, item.metadata.namespace, item.metadata.name ?? '', options);
        } catch (error) {
          // Gone meanwhile (e.g. collected with its owner): that is what was asked.
          if (!(error instanceof ApiError && error.code === 404)) throw error;
        }
      }
      return { code: 200, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } };
    }
    case 'watch':
      throw new Error('watches are served as streams');
  }
}

function serveResourceWatch(
  ctx: HandlerContext,
  res: ServerResponse,
  target: ResourceRoute,
  type: ResourceType,
  query: URLSearchParams,
  attrs: RequestAttributes,
): void {
  const { labelSelector, fieldSelector } = selectors(query);
  // A watch on a named object is a watch of the collection restricted to that name.
  const byName = target.name !== undefined ? `metadata.name=${target.name}` : undefined;
  const timeoutSeconds = Number(query.get('timeoutSeconds'));
  const timeoutMs =
    timeoutSeconds > 0 ? timeoutSeconds * 1000 : ctx.watchTimeoutMs * (1 + ctx.faults.random());
  const stream = serveWatch(res, {
    store: ctx.store,
    type,
    namespace: target.namespace,
    options: {
      labelSelector,
      fieldSelector: [fieldSelector, byName].filter(Boolean).join(',') || undefined,
      resourceVersion: query.get('resourceVersion') || undefined,
      allowBookmarks: isTrue(query.get('allowWatchBookmarks')),
    },
    timeoutMs,
    fault: ctx.faults.watchFaultFor(attrs),
    onStart: (code) => ctx.counters.record(attrs, code),
    onRefused: (error) => {
      ctx.counters.record(attrs, error instanceof ApiError ? error.code : 500);
      sendError(res, error);
    },
  });
  ctx.watches.add(stream);
  void stream.done.then(() => ctx.watches.delete(stream));
}

function selectors(query: URLSearchParams): { labelSelector?: string; fieldSelector?: string } {
  return {
    labelSelector: query.get('labelSelector') || undefined,
    fieldSelector: query.get('fieldSelector') || undefined,
  };
}

/**
 * A list's `limit` (a 64-bit integer; 0, negative or absent: no limit) and `continue` token. A limit
 * that is not one is 400 with the words of Go's strconv.ParseInt, as kube-apiserver answers.
 */
function paging(query: URLSearchParams): { limit?: number; continue?: string } {
  const limit = query.get('limit');
  if (limit !== null && limit !== '') {
    const parseError = (why: string) =>
      new ApiError(400, 'BadRequest', `strconv.ParseInt: parsing ${JSON.stringify(limit)}: ${why}`);
    if (!/^[+-]?\d+$/.test(limit)) throw parseError('invalid syntax');
    const value = BigInt(limit);
    if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) throw parseError('value out of range');
  }
  return {
    ...(limit ? { limit: Number(limit) } : {}),
    ...(query.get('continue') ? { continue: query.get('continue')! } : {}),
  };
}

/**
 * The object of a create or update: a JSON object. The store checks it against the URL (namespace,
 * name, apiVersion and kind) as kube-apiserver does.
 */
function objectBody(
  req: IncomingMessage,
  body: Buffer,
): { object: KubeObject; duplicates: readonly string[] } {
  const contentType = mediaType(req);
  if (contentType !== '' && contentType !== JSON_TYPE && contentType !== '*/*') {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${JSON_TYPE}`,
    );
  }
  const { value, duplicates } = parseJson(body);
  if (!isObject(value)) throw new ApiError(400, 'BadRequest', 'the request body must be a JSON object');
  return { object: value as KubeObject, duplicates };
}

/** DeleteOptions from the body (if any) and the query (`propagationPolicy`, `orphanDependents`). */
function deleteOptions(query: URLSearchParams, body: Buffer): DeleteOptions {
  const parsed = body.length > 0 ? parseJson(body).value : {};
  if (!isObject(parsed)) throw new ApiError(400, 'BadRequest', 'DeleteOptions must be a JSON object');
  if (Array.isArray(parsed.dryRun) && parsed.dryRun.length > 0) {
    throw new ApiError(
      400,
      'BadRequest',
      'dryRun is not supported by the test cluster; send the request without it',
    );
  }
  let policy = query.get('propagationPolicy') ?? parsed.propagationPolicy;
  const orphan = query.get('orphanDependents') ?? parsed.orphanDependents;
  // kube-apiserver validates DeleteOptions before it looks for the object: 422 even for a missing one.
  const invalidOptions = (cause: AdmissionCause) => invalid('DeleteOptions', 'meta.k8s.io', '', [cause]);
  if (policy !== undefined && policy !== null && orphan !== undefined && orphan !== null) {
    throw invalidOptions(
      invalidCause(
        'propagationPolicy',
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy === undefined && orphan !== undefined && orphan !== null) {
    policy = orphan === true || orphan === 'true' ? 'Orphan' : 'Background';
  }
  if (
    policy !== undefined &&
    policy !== null &&
    !['Background', 'Foreground', 'Orphan'].includes(String(policy))
  ) {
    throw invalidOptions({
      field: 'propagationPolicy',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
      reason: 'FieldValueNotSupported',
    });
  }
  const preconditions = isObject(parsed.preconditions) ? parsed.preconditions : undefined;
  return {
    ...(policy ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] } : {}),
    ...(preconditions
      ? {
          preconditions: {
            ...(typeof preconditions.uid === 'string' ? { uid: preconditions.uid } : {}),
            ...(typeof preconditions.resourceVersion === 'string'
              ? { resourceVersion: preconditions.resourceVersion }
              : {}),
          },
        }
      : {}),
  };
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function parseJson(body: Buffer): ReturnType<typeof parseJsonBody> {
  return parseJsonBody(body.toString('utf8'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body; 413 past MAX_REQUEST_BODY_BYTES (the rest is read and dropped, as a server does). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= MAX_REQUEST_BODY_BYTES) resolve(Buffer.concat(chunks));
      else {
        reject(
          new ApiError(
            413,
            'RequestEntityTooLarge',
            `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`,
          ),
        );
      }
    });
    req.on('error', reject);
  });
}

function sleep(ctx: HandlerContext, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      ctx.sleeps.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    ctx.sleeps.add(wake);
  });
}

function methodNotAllowed(): ApiError {
  return new ApiError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}

function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  const text = stringifyJson(body) ?? 'null';
  res.writeHead(code, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Any failure as a `Status`; errors that are not `ApiError`s are server bugs and answer 500. */
function sendError(res: ServerResponse, error: unknown): void {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(
          500,
          'InternalError',
          `Internal error occurred: ${(error as Error)?.message ?? String(error)}`,
        );
  const retryAfter = apiError.details?.retryAfterSeconds;
  sendJson(
    res,
    apiError.code,
    apiError.toStatus(),
    retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {},
  );
}
