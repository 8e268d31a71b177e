import { describe, expect, it } from '@jest/globals';
import {
  Labels,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { CacheView } from '../../src/kube/informer-contract';
import { setsOfClass, setsOfExporter, setsOfLease, setsOfOwnedObject } from '../../src/reconciler/handlers';

function cache<T extends { metadata?: { name?: string; namespace?: string } }>(items: T[]): CacheView<T> {
  return {
    list: (ns) => items.filter((i) => ns === undefined || i.metadata?.namespace === ns),
    get: (ns, name) => items.find((i) => i.metadata?.namespace === ns && i.metadata?.name === name),
    byLabel: () => [],
    byIndex: () => [],
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

describe('event handlers › ownership first (SPEC §3.16)', () => {
  const setOwner = (name: string) => [
    {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'ExporterSet',
      name,
      uid: `uid-${name}`,
      controller: true,
    },
  ];
  const exporterOwner = (name: string) => [
    { apiVersion: 'jumpstarter.dev/v1alpha1', kind: 'Exporter', name, uid: `uid-${name}`, controller: true },
  ];
  const adopted = {
    metadata: {
      name: 'rpi-x7k2p',
      namespace: 'lab',
      labels: { board: 'rpi4' },
      ownerReferences: setOwner('rpi'),
    },
  } as unknown as Exporter;
  const moved = {
    metadata: {
      name: 'moved-1',
      namespace: 'lab',
      labels: { [Labels.exporterSetName]: 'x86' },
      ownerReferences: setOwner('rpi'),
    },
  } as unknown as Exporter;
  const owned = { ...caches, exporters: cache([adopted, moved]) };

  it('maps an Exporter to the set that controls it, whatever its labels', () => {
    expect(setsOfExporter(adopted)).toEqual(['lab/rpi']);
    expect(setsOfExporter(moved)).toEqual(['lab/rpi', 'lab/x86']);
    expect(setsOfExporter({ metadata: { name: 'hw', namespace: 'lab', labels: { board: 'rpi4' } } })).toEqual(
      [],
    );
  });

  it('ignores owner references that are not a controlling ExporterSet of our group', () => {
    const notController = {
      metadata: {
        name: 'e',
        namespace: 'lab',
        ownerReferences: [{ ...setOwner('rpi')[0], controller: false }],
      },
    };
    const otherGroup = {
      metadata: {
        name: 'e',
        namespace: 'lab',
        ownerReferences: [{ ...setOwner('rpi')[0], apiVersion: 'example.com/v1' }],
      },
    };
    expect(setsOfExporter(notController)).toEqual([]);
    expect(setsOfExporter(otherGroup)).toEqual([]);
  });

  it('maps a Pod or a Secret to the set of the Exporter that owns it, else to its label', () => {
    const pod = {
      metadata: { name: 'rpi-x7k2p', namespace: 'lab', ownerReferences: exporterOwner('rpi-x7k2p') },
    };
    const credential = {
      metadata: { name: 'rpi-x7k2p-exporter', namespace: 'lab', ownerReferences: exporterOwner('rpi-x7k2p') },
    };
    const orphan = {
      metadata: {
        name: 'exporter-config-gone',
        namespace: 'lab',
        labels: { [Labels.exporterSetName]: 'x86' },
        ownerReferences: exporterOwner('gone'),
      },
    };
    expect(setsOfOwnedObject(pod, owned)).toEqual(['lab/rpi']);
    expect(setsOfOwnedObject(credential, owned)).toEqual(['lab/rpi']);
    expect(setsOfOwnedObject(orphan, owned)).toEqual(['lab/x86']);
    expect(setsOfOwnedObject({ metadata: { name: 'unrelated', namespace: 'lab' } }, owned)).toEqual([]);
  });

  it('maps a Lease to the set that controls the Exporter it names', () => {
    const lease = {
      metadata: { name: 'l', namespace: 'lab' },
      spec: { selector: { matchLabels: { board: 'none' } } },
      status: { exporterRef: { name: 'rpi-x7k2p' } },
    } as unknown as Lease;
    expect(setsOfLease(lease, owned)).toEqual(['lab/rpi']);
  });
});
