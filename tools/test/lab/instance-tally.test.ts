import { describe, expect, it } from '@jest/globals';
import { Labels } from 'virtual-exporters/internal';
import { InstanceCounter } from '../../src/lab/instance-tally';
import type { WatchEvent } from 'virtual-exporters-test-cluster';

const exporter = (type: WatchEvent['type'], name: string, uid: string, set = 'pool'): WatchEvent => ({
  type,
  object: {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: { namespace: 'lab', name, uid, ...(set ? { labels: { [Labels.exporterSetName]: set } } : {}) },
  },
});

describe('InstanceCounter', () => {
  it('counts created instances and tells recycled ones (served a lease) from other removals', () => {
    const counter = new InstanceCounter();
    counter.observe(exporter('ADDED', 'pool-0', 'u0'));
    counter.observe(exporter('ADDED', 'pool-1', 'u1'));
    counter.observe(exporter('MODIFIED', 'pool-0', 'u0'));
    counter.leaseAssigned('lab', 'pool-0');
    counter.observe(exporter('DELETED', 'pool-0', 'u0'));
    counter.observe(exporter('DELETED', 'pool-0', 'u0')); // a repeated event counts once
    counter.observe(exporter('DELETED', 'pool-1', 'u1'));
    // A new instance reusing a name has not served the old one's lease.
    counter.observe(exporter('ADDED', 'pool-0', 'u2'));
    counter.observe(exporter('DELETED', 'pool-0', 'u2'));
    expect(counter.tally()).toEqual({ created: 3, recycled: 1, removed: 2 });
  });

  it('ignores Exporters no set owns', () => {
    const counter = new InstanceCounter();
    counter.observe(exporter('ADDED', 'static', 'u9', ''));
    counter.observe(exporter('DELETED', 'static', 'u9', ''));
    expect(counter.tally()).toEqual({ created: 0, recycled: 0, removed: 0 });
  });
});
