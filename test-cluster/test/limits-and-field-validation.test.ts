/**
 * The test cluster says no where a real API server says no: field validation (Strict 400, Warn
 * `Warning` headers, Ignore), the 3 MiB request and 1.5 MiB object limits, Secret validation (1 MiB of
 * data, config keys) and JSON nesting (10,000 levels: deeper is 400, as deep is stored, listed,
 * watched and patched).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Watch } from '@kubernetes/client-node';
import { GROUP, VERSION } from 'virtual-exporters/internal';
import {
  MAX_JSON_DEPTH,
  MAX_OBJECT_BYTES,
  MAX_REQUEST_BODY_BYTES,
  MAX_SECRET_BYTES,
  parseJsonBody,
  startTestCluster,
  stringifyJson,
  tokenFor,
  type TestCluster,
} from '../src';
import { clientsFor, exporterSet, rejection, type Clients } from './conformance-support';

let cluster: TestCluster;
let api: Clients;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = clientsFor(cluster.kubeConfig);
});
afterAll(() => cluster.stop());

const SETS = `/apis/${GROUP}/${VERSION}/namespaces/default/exportersets`;

interface Answer {
  readonly code: number;
  readonly body: any;
  readonly warnings: string | null;
}

async function send(
  path: string,
  body: string,
  method = 'POST',
  contentType = 'application/json',
): Promise<Answer> {
  const response = await fetch(cluster.url + path, {
    method,
    body: method === 'GET' ? undefined : body,
    headers: { Authorization: `Bearer ${tokenFor('admin')}`, 'Content-Type': contentType },
  });
  const text = await response.text();
  return {
    code: response.status,
    body: text.startsWith('{') ? JSON.parse(text) : text,
    warnings: response.headers.get('warning'),
  };
}

/** `{"a":{"a":…{"leaf":1}…}}` with `levels` objects, as text (JSON.stringify would overflow its stack). */
function nestedText(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{"leaf":1}' + '}'.repeat(levels - 1);
}

function depthOf(value: unknown): number {
  let depth = 0;
  for (let v = value; typeof v === 'object' && v !== null; v = (v as Record<string, unknown>).a) depth++;
  return depth;
}

describe('field validation', () => {
  const withUnknown = (name: string) =>
    JSON.stringify({
      ...exporterSet(name),
      metadata: { name, colour: 'red' },
      spec: { ...exporterSet(name).spec, foo: 1 },
    });

  it('Strict refuses unknown fields with 400, naming each as kube-apiserver does', async () => {
    const answer = await send(`${SETS}?fieldValidation=Strict`, withUnknown('strict'));
    expect(answer.code).toBe(400);
    expect(answer.body).toMatchObject({
      reason: 'BadRequest',
      message:
        'ExporterSet in version "v1alpha1" cannot be handled as a ExporterSet: strict decoding error: unknown field "metadata.colour", unknown field "spec.foo"',
    });
  });

  it('Strict refuses duplicate fields in the body text', async () => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"twice","name":"again"},"data":{"k":"1","k":"2"}}`;
    const answer = await send('/api/v1/namespaces/default/configmaps?fieldValidation=Strict', body);
    expect(answer.code).toBe(400);
    expect(answer.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.k"',
    );
  });

  it('Warn (the default) stores the object without the unknown fields and says so in Warning headers', async () => {
    const answer = await send(SETS, withUnknown('warned'));
    expect(answer.code).toBe(201);
    expect(answer.warnings).toBe(
      '299 - "unknown field \\"metadata.colour\\"", 299 - "unknown field \\"spec.foo\\""',
    );
    expect(answer.body.spec.foo).toBeUndefined();
  });

  it('Ignore stores without a word; preserved-unknown fields (parameters) are never unknown', async () => {
    const ignored = await send(`${SETS}?fieldValidation=Ignore`, withUnknown('ignored'));
    expect(ignored.code).toBe(201);
    expect(ignored.warnings).toBeNull();
    const preserved = await send(
      `${SETS}?fieldValidation=Strict`,
      JSON.stringify(exporterSet('preserved', { parameters: { anything: { at: ['any', { depth: 1 }] } } })),
    );
    expect(preserved.code).toBe(201);
    expect(preserved.warnings).toBeNull();
  });

  it('checks the top-level fields of built-in kinds and the fields of a merge patch', async () => {
    const pod = await send(
      '/api/v1/namespaces/default/pods?fieldValidation=Strict',
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, extra: true }),
    );
    expect(pod.body.message).toContain('strict decoding error: unknown field "extra"');
    await send(SETS, JSON.stringify(exporterSet('patched')));
    const patch = await send(
      `${SETS}/patched?fieldValidation=Strict`,
      JSON.stringify({ spec: { minReplicas: 1, bogus: 2 } }),
      'PATCH',
      'application/merge-patch+json',
    );
    expect(patch.code).toBe(400);
    expect(patch.body.message).toContain('unknown field "spec.bogus"');
  });

  it('refuses an unknown directive', async () => {
    const answer = await send(`${SETS}?fieldValidation=Loud`, JSON.stringify(exporterSet('loud')));
    expect(answer.code).toBe(400);
    expect(answer.body.message).toContain('fieldValidation: Unsupported value: "Loud"');
  });
});

describe('sizes', () => {
  it(`refuses a request body over 3 MiB with 413`, async () => {
    const data = { big: 'x'.repeat(MAX_REQUEST_BODY_BYTES) };
    const answer = await send(
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data }),
    );
    expect(answer.code).toBe(413);
    expect(answer.body).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
    });
  });

  it('refuses an object over 1.5 MiB as etcd does (500 "request is too large") and stores nothing', async () => {
    const data = { big: 'x'.repeat(MAX_OBJECT_BYTES) };
    const answer = await send(
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'large' }, data }),
    );
    expect(answer.code).toBe(500);
    expect(answer.body.message).toBe('etcdserver: request is too large');
    expect(
      (await rejection(api.core.readNamespacedConfigMap({ name: 'large', namespace: 'default' }))).code,
    ).toBe(404);
  });

  it('refuses Secret data over 1 MiB in all, stringData included, with 422', async () => {
    const half = 'y'.repeat(MAX_SECRET_BYTES / 2);
    const { code, status } = await rejection(
      api.core.createNamespacedSecret({
        namespace: 'default',
        body: {
          metadata: { name: 'x' },
          data: { a: Buffer.from(half).toString('base64') },
          stringData: { b: `${half}!` },
        },
      }),
    );
    expect(code).toBe(422);
    expect(status.message).toBe('Secret "x" is invalid: data: Too long: must have at most 1048576 bytes');
    // Exactly 1 MiB is fine.
    await api.core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'full' }, stringData: { a: half, b: half } },
    });
  });

  it('refuses invalid Secret keys with 422', async () => {
    const { code, status } = await rejection(
      api.core.createNamespacedSecret({
        namespace: 'default',
        body: { metadata: { name: 'keys' }, stringData: { 'bad key': 'v', '..x': 'v' } },
      }),
    );
    expect(code).toBe(422);
    expect(status.message).toBe(
      `Secret "keys" is invalid: [data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+'), data[..x]: Invalid value: "..x": must not start with '..']`,
    );
  });
});

describe('nesting', () => {
  it('refuses JSON nested more than 10,000 levels with 400, before parsing it', async () => {
    const body = JSON.stringify(exporterSet('too-deep', { parameters: { x: 0 } })).replace(
      '{"x":0}',
      nestedText(MAX_JSON_DEPTH),
    );
    const answer = await send(SETS, body);
    expect(answer.code).toBe(400);
    expect(answer.body.message).toContain('exceeded max depth');
    expect(() => parseJsonBody(nestedText(MAX_JSON_DEPTH - 1))).not.toThrow();
  });

  it('writes JSON as deep as it stores, exactly as JSON.stringify would', () => {
    const text = nestedText(MAX_JSON_DEPTH);
    expect(stringifyJson(JSON.parse(text))).toBe(text);
    // Below a depth V8 cannot write, the iterative writer keeps JSON.stringify's rules.
    const mixed = { a: [1, undefined, () => 0, { b: undefined, c: NaN, d: 'x"y' }], e: undefined };
    let deep: unknown = mixed;
    for (let i = 0; i < 9_000; i++) deep = { a: deep };
    expect(stringifyJson(deep)).toBe('{"a":'.repeat(9_000) + JSON.stringify(mixed) + '}'.repeat(9_000));
  });

  it('stores, lists, watches and patches an object nested 9,990 levels deep', async () => {
    const levels = MAX_JSON_DEPTH - 10;
    const events: unknown[] = [];
    const watch = await new Watch(cluster.kubeConfig).watch(
      SETS,
      {},
      (type, object) => events.push({ type, object }),
      () => undefined,
    );
    try {
      const body = JSON.stringify(exporterSet('deep', { parameters: { x: 0 } })).replace(
        '{"x":0}',
        nestedText(levels),
      );
      expect((await send(`${SETS}?fieldValidation=Strict`, body)).code).toBe(201);
      const listed = await send(SETS, '', 'GET');
      const deep = listed.body.items.find((i: any) => i.metadata.name === 'deep');
      expect(depthOf(deep.spec.parameters)).toBe(levels);
      // A merge patch as deep as the object, and a change beside it.
      const patched = await fetch(`${cluster.url}${SETS}/deep`, {
        method: 'PATCH',
        body: '{"spec":{"minReplicas":2,"parameters":' + nestedText(levels) + '}}',
        headers: {
          Authorization: `Bearer ${tokenFor('admin')}`,
          'Content-Type': 'application/merge-patch+json',
        },
      });
      expect(patched.status).toBe(200);
      const stored = (await send(`${SETS}/deep`, '', 'GET')).body;
      expect(stored.spec.minReplicas).toBe(2);
      expect(depthOf(stored.spec.parameters)).toBe(levels);
      // A JSON patch whose `test` compares the whole deep value.
      const tested = await send(
        `${SETS}/deep`,
        `[{"op":"test","path":"/spec/parameters","value":${nestedText(levels)}},{"op":"replace","path":"/spec/minReplicas","value":3}]`,
        'PATCH',
        'application/json-patch+json',
      );
      expect(tested.code).toBe(200);
      expect(tested.body.spec.minReplicas).toBe(3);
      await cluster.settle();
      expect(events.some((e: any) => e.object?.metadata?.name === 'deep' && e.type === 'MODIFIED')).toBe(
        true,
      );
    } finally {
      watch.abort();
    }
  });
});
