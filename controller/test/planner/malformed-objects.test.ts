/**
 * Hostile input at the planner: Exporters and Leases with shapes Jumpstarter's own CRDs
 * would refuse but an older, looser or hand-installed CRD lets through — conditions that are not a
 * list or hold nulls, references that are not strings — and Leases pinned to names the set never
 * issued. None of them may make a pass throw: a throwing pass serves no set, and one malformed Lease
 * is read by the pass of every set in its namespace. The set goes on as if the odd object were
 * absent (or, for an Exporter, not ready).
 */
import { describe, expect, it } from '@jest/globals';
import type { Exporter, Lease } from 'virtual-exporters/internal';
import { leaseConcernsSet, plan } from '../../src/planner';
import { instance, lease, makeSet, namesOf, snapshot, SET } from './builders';

type Json = Record<string, any>;

/** An instance of the set whose Exporter status is replaced by `status`. */
function exporterWith(status: unknown) {
  const base = instance(0, 'available');
  return { ...base, exporter: { ...base.exporter, status } as unknown as Exporter };
}

/** A Lease of the namespace with `change` applied to a plain copy. */
function leaseWith(change: (lease: Json) => void): Lease {
  const copy = JSON.parse(JSON.stringify(lease('odd'))) as Json;
  change(copy);
  return copy as Lease;
}

const buffer = makeSet({ minAvailableReplicas: 2, maxReplicas: 0 });

describe('planner › malformed Exporters', () => {
  it.each<[string, unknown]>([
    ['conditions that are a string', { conditions: 'Online' }],
    ['conditions that are a map', { conditions: { Online: 'True' } }],
    ['a null condition', { conditions: [null] }],
    ['a condition that is a number', { conditions: [5] }],
    ['a status that is a string', 'Online'],
    ['a credential that is a string', { credential: 'pool-0-exporter', endpoint: 5 }],
  ])('plans around an instance with %s, as one not ready yet', (_what, status) => {
    // Its Pod runs, so it counts as starting supply: one more instance makes the buffer of two.
    const result = plan(snapshot({ set: buffer, instances: [exporterWith(status)] }));
    expect(result.status?.readyReplicas).toBe(0);
    expect(namesOf(result, 'CreateExporter')).toEqual([`${SET}-1`]);
  });
});

describe('planner › malformed Leases', () => {
  it.each<[string, (lease: Json) => void]>([
    ['conditions that are a map', (l) => (l.status.conditions = { Pending: 'True' })],
    ['a null condition', (l) => (l.status.conditions = [null])],
    ['an exporterRef name that is a number', (l) => (l.status.exporterRef = { name: 42 })],
    ['a pinned exporterRef name that is a number', (l) => (l.spec.exporterRef = { name: 42 })],
    ['an exporterRef that is a string', (l) => (l.status.exporterRef = `${SET}-0`)],
    ['a selector that is a string', (l) => (l.spec.selector = 'board=rpi4')],
    ['no spec', (l) => delete l.spec],
  ])('serves the set despite a Lease with %s', (_what, change) => {
    const odd = leaseWith(change);
    const result = plan(snapshot({ set: buffer, leases: [odd] }));
    expect(namesOf(result, 'CreateExporter').length).toBeGreaterThanOrEqual(2);
    // The Lease handler asks the same question of every set in the namespace.
    expect(() => leaseConcernsSet(odd, buffer)).not.toThrow();
  });

  it('is not wedged by a Lease pinned to the last safe ordinal', () => {
    const pinned = leaseWith((l) => {
      l.spec.exporterRef = { name: `${SET}-${Number.MAX_SAFE_INTEGER}` };
      l.status = { ended: true };
    });
    const result = plan(snapshot({ set: buffer, leases: [pinned] }));
    expect(namesOf(result, 'CreateExporter')).toHaveLength(2);
    expect(result.status?.nextOrdinal).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });
});
