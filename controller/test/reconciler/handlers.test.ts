import { describe, expect, it } from '@jest/globals';
import {
  Labels,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { CacheView } from '../../src/kube/informer';
import { setsOfClass, setsOfLease } from '../../src/reconciler/handlers';

function cache<T extends { metadata?: { name?: string; namespace?: string } }>(items: T[]): CacheView<T> {
  return {
    list: (ns) => items.filter((i) => ns === undefined || i.metadata?.namespace === ns),
    get: (ns, name) => items.find((i) => i.metadata?.namespace === ns && i.metadata?.name === name),
    byLabel: () => [],
  };
}

const set = (name: string, board: string, cls = 'qemu'): ExporterSet =>
  ({
    metadata: { name, namespace: 'lab' },
    spec: {
      virtualTargetClassName: cls,
      selector: { matchLabels: { board } },
      template: { metadata: { labels: { board } } },
    },
  }) as unknown as ExporterSet;

const caches = {
  exporterSets: cache([set('rpi', 'rpi4'), set('x86', 'x86'), set('other-class', 'arm', 'big')]),
  exporters: cache([
    {
      metadata: { name: 'legacy-7', namespace: 'lab', labels: { [Labels.exporterSetName]: 'x86' } },
    } as unknown as Exporter,
  ]),
};

describe('event handlers', () => {
  it('maps a Lease to the sets whose template it selects and to the set of the Exporter it names', () => {
    const lease = (selector: object, exporterRef?: string): Lease =>
      ({
        metadata: { name: 'l', namespace: 'lab' },
        spec: { selector },
        ...(exporterRef ? { status: { exporterRef: { name: exporterRef } } } : {}),
      }) as unknown as Lease;
    expect(setsOfLease(lease({ matchLabels: { board: 'rpi4' } }), caches)).toEqual(['lab/rpi']);
    expect(setsOfLease(lease({ matchLabels: { board: 'none' } }, 'legacy-7'), caches)).toEqual(['lab/x86']);
    expect(setsOfLease(lease({ matchLabels: { board: 'none' } }), caches)).toEqual([]);
  });

  it('maps a class to every set of its namespace that uses it', () => {
    const cls = { metadata: { name: 'qemu', namespace: 'lab' } } as VirtualTargetClass;
    expect(setsOfClass(cls, caches).sort()).toEqual(['lab/rpi', 'lab/x86']);
  });
});
