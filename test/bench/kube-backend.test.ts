/**
 * The pure parts of the real-server backend (`--backend kube`): where each resource is served, and how
 * namespaces are spread over instances of the simulators.
 */
import { describe, expect, it } from '@jest/globals';
import { shardNamespaces } from '../../bench/support/kube-cluster-service';
import { collectionPath } from '../../bench/support/kube-rest';

describe('bench kube backend', () => {
  it('names the collection of every resource the benchmarks use', () => {
    expect(collectionPath('pods', 'ns')).toBe('/api/v1/namespaces/ns/pods');
    expect(collectionPath('secrets')).toBe('/api/v1/secrets');
    expect(collectionPath('revisions', 'ns')).toBe('/apis/apps/v1/namespaces/ns/controllerrevisions');
    expect(collectionPath('sets', 'ns')).toBe(
      '/apis/virtualtarget.jumpstarter.dev/v1alpha1/namespaces/ns/exportersets',
    );
    expect(collectionPath('leases')).toBe('/apis/jumpstarter.dev/v1alpha1/leases');
  });

  it('spreads namespaces over ten instances of the simulators at most, in order', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `ns-${i}`);
    expect(shardNamespaces(['one'])).toEqual([['one']]);
    expect(shardNamespaces(names(10)).map((group) => group.length)).toEqual(Array(10).fill(1));
    const hundred = shardNamespaces(names(100));
    expect(hundred.map((group) => group.length)).toEqual(Array(10).fill(10));
    expect(hundred.flat()).toEqual(names(100));
    expect(shardNamespaces(names(25)).map((group) => group.length)).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 1]);
  });
});
