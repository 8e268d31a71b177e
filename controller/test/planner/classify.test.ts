import { describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION } from 'virtual-exporters/internal';
import {
  classifyInstance,
  desiredExporter,
  inFlightNames,
  isOwnedBy,
  leaseConcernsSet,
  leasedExporterNames,
  type ClassifyContext,
  type InstanceSnapshot,
} from '../../src/planner';
import { instance, lease, makeSet, revisionOf, type Shape } from './builders';

function context(leases = [lease('l', { exporter: 'pool-9' })], inFlight = {}): ClassifyContext {
  return {
    set: makeSet(),
    revision: revisionOf(),
    leased: leasedExporterNames(leases),
    everLeased: new Set(leases.map((l) => l.status?.exporterRef?.name ?? '')),
    endedLeases: new Set(),
    inFlight: inFlightNames(inFlight),
  };
}
const stateOf = (i: InstanceSnapshot, ctx = context()) => classifyInstance(i, ctx).state;

describe('classify', () => {
  it.each<[Shape, string]>([
    ['available', 'available'],
    ['starting', 'starting'],
    ['unrendered', 'starting'],
    ['new', 'starting'],
    ['standby', 'standby'],
    ['offline', 'offline'],
    ['exited', 'exited'],
    ['failed', 'failed'],
    ['crashed', 'failed'],
  ])('a %s instance is %s', (shape, state) => {
    expect(stateOf(instance(1, shape))).toBe(state);
  });

  it('applies the precedence: detached, deleting, leased, retiring, disabled by hand', () => {
    expect(stateOf(instance(9, 'available', { detached: true }))).toBe('detached');
    expect(stateOf(instance(9, 'available', { deleting: true }))).toBe('deleting');
    expect(stateOf(instance(9, 'failed', { enabled: false, retiring: 'scale-down' }))).toBe('leased');
    expect(stateOf(instance(1, 'failed', { enabled: false, retiring: 'scale-down' }))).toBe('retiring');
    expect(stateOf(instance(1, 'failed', { enabled: false }))).toBe('disabledByHand');
  });

  it('does not count an exporter in a lease hook as available', () => {
    const withStatus = (exporterStatus: 'AfterLeaseHook' | 'AfterLeaseHookFailed' | 'Available') => {
      const base = instance(1, 'available');
      return { ...base, exporter: { ...base.exporter, status: { ...base.exporter.status, exporterStatus } } };
    };
    expect(stateOf(withStatus('Available'))).toBe('available');
    expect(stateOf(withStatus('AfterLeaseHook'))).toBe('starting');
    expect(stateOf(withStatus('AfterLeaseHookFailed'))).toBe('offline');
  });

  it('treats in-flight writes as done', () => {
    const inFlight = {
      disabling: ['pool-1'],
      deleting: ['pool-2'],
      releasing: ['pool-3'],
      promoting: ['pool-4'],
    };
    const ctx = context([], inFlight);
    expect(stateOf(instance(1, 'available'), ctx)).toBe('retiring');
    expect(stateOf(instance(2, 'available'), ctx)).toBe('deleting');
    expect(stateOf(instance(3, 'available'), ctx)).toBe('detached');
    expect(stateOf(instance(4, 'standby'), ctx)).toBe('starting');
  });

  it('knows whether the current Pod ever became ready', () => {
    expect(classifyInstance(instance(1, 'failed'), context()).everReady).toBe(false);
    expect(classifyInstance(instance(1, 'crashed'), context()).everReady).toBe(true);
    expect(classifyInstance(instance(1, 'crashed', { revision: 'x' }), context()).current).toBe(false);
  });
});

describe('desiredExporter', () => {
  it('carries the template, our labels, the ordinal and the controller reference', () => {
    const set = makeSet({
      template: { metadata: { labels: { board: 'rpi4' }, annotations: { team: 'ci' } } },
    });
    const exporter = desiredExporter(set, 'pool-4', 4, 'abc', true);
    expect(exporter).toEqual({
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: {
        name: 'pool-4',
        namespace: 'lab',
        labels: {
          board: 'rpi4',
          'exporterset.jumpstarter.dev/name': 'pool',
          'exporterset.jumpstarter.dev/template-revision': 'abc',
          'exporterset.jumpstarter.dev/standby': 'true',
        },
        annotations: { team: 'ci', 'exporterset.jumpstarter.dev/ordinal': '4' },
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'ExporterSet',
            name: 'pool',
            uid: 'uid-pool',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { enabled: true },
    });
    expect(isOwnedBy(exporter, set)).toBe(true);
  });
});

describe('leaseConcernsSet', () => {
  it('maps a lease to the sets whose new instances it selects or whose instance it names', () => {
    const set = makeSet();
    expect(leaseConcernsSet(lease('a'), set)).toBe(true);
    expect(leaseConcernsSet(lease('b', { selector: { board: 'imx8' } }), set)).toBe(false);
    expect(leaseConcernsSet(lease('c', { selector: { board: 'imx8' }, exporter: 'pool-3' }), set)).toBe(true);
    expect(leaseConcernsSet(lease('d', { selector: { board: 'imx8' }, pinnedTo: 'pool-b-1' }), set)).toBe(
      false,
    );
  });
});
