/**
 * What the caches keep of an object: an Exporter without the status fields no reader uses but with
 * everything the planner, the snapshot and the handlers read; a Pod with its Ready condition and its
 * terminated containers only; odd shapes written by others passed through for the wire guards; inputs
 * never changed; and the string table bounded.
 */
import { describe, expect, it } from '@jest/globals';
import {
  cachedSecretDigest,
  compactObject,
  exporterCacheView,
  podCacheView,
  secretCacheView,
  secretDataDigest,
  type CachedSecret,
} from '../../src/kube/cache-views';
import { StringTable } from '../../src/kube/string-table';
import { conditionIsTrue, listOf, nameOf } from '../../src/planner';

const metadata = {
  name: 'pool-0-0',
  namespace: 'lab',
  uid: 'u-1',
  resourceVersion: '7',
  labels: { 'exporterset.jumpstarter.dev/name': 'pool-0' },
  annotations: { 'exporterset.jumpstarter.dev/ordinal': '0' },
  ownerReferences: [
    { apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1', kind: 'ExporterSet', name: 'pool-0', uid: 's' },
  ],
  managedFields: [{ manager: 'kubectl' }],
};

function exporter(status: unknown): Record<string, unknown> {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata,
    spec: { enabled: true },
    status,
  };
}

describe('exporterCacheView', () => {
  it('drops devices, statusMessage, condition messages and managed fields, and keeps what is read', () => {
    const input = exporter({
      conditions: [
        { type: 'Online', status: 'True', reason: 'Seen', message: 'reports in', lastTransitionTime: 't' },
      ],
      credential: { name: 'pool-0-0-exporter' },
      endpoint: 'grpc.example:443',
      leaseRef: { name: 'lease-1' },
      exporterStatus: 'Available',
      statusMessage: 'ready for a lease',
      lastSeen: '2026-01-01T00:00:00Z',
      devices: [{ uuid: 'd', labels: { a: 'b' } }],
    });
    const before = JSON.stringify(input);
    const view = exporterCacheView(input as never) as unknown as Record<string, any>;
    expect(JSON.stringify(input)).toBe(before);
    const { managedFields: _dropped, ...keptMetadata } = metadata;
    expect(view).toEqual({
      apiVersion: 'jumpstarter.dev/v1alpha1',
      kind: 'Exporter',
      metadata: keptMetadata,
      spec: { enabled: true },
      status: {
        conditions: [{ type: 'Online', status: 'True', reason: 'Seen', lastTransitionTime: 't' }],
        credential: { name: 'pool-0-0-exporter' },
        endpoint: 'grpc.example:443',
        leaseRef: { name: 'lease-1' },
        exporterStatus: 'Available',
        lastSeen: '2026-01-01T00:00:00Z',
      },
    });
  });

  it('passes odd shapes through, so the wire guards read them as they came', () => {
    const odd = exporterCacheView(exporter({ conditions: 'Online', leaseRef: 7 }) as never) as any;
    expect(odd.status.conditions).toBe('Online');
    expect(nameOf(odd.status.leaseRef)).toBeUndefined();
    const mixed = exporterCacheView(
      exporter({ conditions: [null, 'x', { type: 'Online', status: 'True', message: 'm' }] }) as never,
    ) as any;
    expect(mixed.status.conditions).toEqual([null, 'x', { type: 'Online', status: 'True' }]);
    expect(conditionIsTrue(mixed.status.conditions, 'Online')).toBe(true);
    expect(listOf(mixed.status.conditions)).toHaveLength(1);
    expect((exporterCacheView(exporter('weird') as never) as any).status).toBe('weird');
    const noOwners = compactObject({ metadata: { name: 'n', ownerReferences: 'none' } } as never) as any;
    expect(noOwners.metadata.ownerReferences).toBe('none');
  });
});

describe('podCacheView', () => {
  it('keeps the Ready condition and the terminated containers only', () => {
    const view = podCacheView({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { ...metadata, generateName: 'x' },
      spec: { containers: [{ name: 'exporter', image: 'i' }] },
      status: {
        phase: 'Failed',
        startTime: 's',
        conditions: [
          { type: 'Initialized', status: 'True', lastTransitionTime: 'a' },
          { type: 'Ready', status: 'False', reason: 'PodFailed', lastTransitionTime: 'b' },
        ],
        containerStatuses: [
          { name: 'sidecar', state: { running: { startedAt: 's' } } },
          { name: 'exporter', state: { terminated: { exitCode: 1, reason: 'Error', finishedAt: 'f' } } },
        ],
      },
    } as never) as any;
    expect(view.spec).toBeUndefined();
    expect(view.metadata.generateName).toBeUndefined();
    expect(view.status).toEqual({
      phase: 'Failed',
      startTime: 's',
      conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: 'b' }],
      containerStatuses: [
        { name: 'exporter', state: { terminated: { exitCode: 1, reason: 'Error', finishedAt: 'f' } } },
      ],
    });
  });
});

describe('secretCacheView', () => {
  const secret = (data: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'ns', labels: { a: 'b' }, managedFields: [{}] },
    type: 'Opaque',
    data,
  });

  it('keeps a credential token only, and a config Secret as a digest of its data', () => {
    const credential = secretCacheView(secret({ token: 'dG9r', other: 'eA==' })) as CachedSecret;
    expect(credential.data).toEqual({ token: 'dG9r' });
    expect(credential.dataDigest).toBe(secretDataDigest({ token: 'dG9r', other: 'eA==' }));
    const tokenOnly = secretCacheView(secret({ token: 'dG9r' })) as CachedSecret;
    expect(tokenOnly).toMatchObject({ data: { token: 'dG9r' }, metadata: { name: 's', labels: { a: 'b' } } });
    expect(tokenOnly.dataDigest).toBeUndefined();
    expect(cachedSecretDigest(tokenOnly)).toBe(secretDataDigest({ token: 'dG9r' }));

    const config = secretCacheView(secret({ 'config.yaml': 'YTogMQ==' })) as CachedSecret;
    expect(config.data).toBeUndefined();
    expect((config.metadata as Record<string, unknown>).managedFields).toBeUndefined();
    expect(cachedSecretDigest(config)).toBe(secretDataDigest({ 'config.yaml': 'YTogMQ==' }));
  });

  it('digests data independently of key order, and tells values and keys apart', () => {
    expect(secretDataDigest({ a: '1', b: '2' })).toBe(secretDataDigest({ b: '2', a: '1' }));
    expect(secretDataDigest({ a: '1', b: '2' })).not.toBe(secretDataDigest({ a: '1', b: '3' }));
    expect(secretDataDigest({ ab: '' })).not.toBe(secretDataDigest({ a: 'b' }));
    expect(secretDataDigest({})).toBe(secretDataDigest(undefined));
    // Odd values (a looser writer) digest without throwing.
    expect(typeof secretDataDigest({ a: 7, b: null } as Record<string, unknown>)).toBe('string');
  });
});

describe('StringTable', () => {
  it('hands out equal strings, leaves long strings and other values alone, and stays bounded', () => {
    const table = new StringTable(3);
    expect(table.intern('lab')).toBe('lab');
    expect(table.intern(5)).toBe(5);
    table.intern('x'.repeat(500));
    expect(table.size).toBe(1);
    for (const value of ['a', 'b', 'c', 'd', 'e']) table.intern(value);
    expect(table.size).toBeLessThanOrEqual(3);
    expect(table.internValues({ k: 'v', n: 1 })).toEqual({ k: 'v', n: 1 });
    expect(table.internValues('not a map')).toBe('not a map');
  });
});
