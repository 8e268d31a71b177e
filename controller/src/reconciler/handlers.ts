/**
 * Informer events → ExporterSet keys (SPEC §3 runtime). Handlers decide nothing: they only say which
 * sets to look at again, and the pass reads the current state (level-triggered).
 *
 * - a set: itself;
 * - Exporters, Pods and config Secrets: the set named by their `exporterset.jumpstarter.dev/name` label;
 * - a Jumpstarter Lease: every set of its namespace it concerns (`leaseConcernsSet`: its selector
 *   selects the set's template labels, or it names one of the set's instances), and the set labelled
 *   on the Exporter it names;
 * - a VirtualTargetClass: every set of its namespace that uses it.
 */
import {
  Labels,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters';
import type { ResourceInformer, WireObject } from '../kube/informer';
import { leaseConcernsSet } from '../planner';
import { objectKey } from '../queue/object-key';
import type { SnapshotCaches } from './snapshot';

export interface HandlerInformers {
  readonly exporterSets: ResourceInformer<ExporterSet>;
  readonly virtualTargetClasses: ResourceInformer<VirtualTargetClass>;
  readonly exporters: ResourceInformer<Exporter>;
  readonly leases: ResourceInformer<Lease>;
  readonly pods: ResourceInformer<WireObject>;
  readonly secrets: ResourceInformer<WireObject>;
}

const EVENTS = ['add', 'update', 'delete'] as const;

function labelledSet(object: WireObject): string | undefined {
  const namespace = object.metadata?.namespace;
  const name = object.metadata?.labels?.[Labels.exporterSetName];
  return namespace && name ? objectKey({ namespace, name }) : undefined;
}

/** The keys of the sets a Lease concerns. */
export function setsOfLease(
  lease: Lease,
  caches: Pick<SnapshotCaches, 'exporterSets' | 'exporters'>,
): string[] {
  const namespace = lease.metadata?.namespace;
  if (!namespace) return [];
  const keys = new Set<string>();
  for (const set of caches.exporterSets.list(namespace)) {
    if (leaseConcernsSet(lease, set)) keys.add(objectKey({ namespace, name: set.metadata?.name ?? '' }));
  }
  for (const name of [lease.status?.exporterRef?.name, lease.spec?.exporterRef?.name]) {
    const exporter = name ? caches.exporters.get(namespace, name) : undefined;
    const key = exporter ? labelledSet(exporter) : undefined;
    if (key) keys.add(key);
  }
  return [...keys];
}

/** The keys of the sets that use a class. */
export function setsOfClass(cls: VirtualTargetClass, caches: Pick<SnapshotCaches, 'exporterSets'>): string[] {
  const namespace = cls.metadata?.namespace;
  if (!namespace) return [];
  return caches.exporterSets
    .list(namespace)
    .filter((set) => set.spec?.virtualTargetClassName === cls.metadata?.name)
    .map((set) => objectKey({ namespace, name: set.metadata?.name ?? '' }));
}

/** Registers the handlers; `enqueue` receives set keys. Call before the informers start. */
export function registerHandlers(informers: HandlerInformers, enqueue: (key: string) => void): void {
  for (const event of EVENTS) {
    informers.exporterSets.on(event, (set) => {
      const { namespace, name } = set.metadata ?? {};
      if (namespace && name) enqueue(objectKey({ namespace, name }));
    });
    for (const owned of [
      informers.exporters,
      informers.pods,
      informers.secrets,
    ] as ResourceInformer<WireObject>[]) {
      owned.on(event, (object) => {
        const key = labelledSet(object);
        if (key) enqueue(key);
      });
    }
    informers.leases.on(event, (lease) => setsOfLease(lease, informers).forEach(enqueue));
    informers.virtualTargetClasses.on(event, (cls) => setsOfClass(cls, informers).forEach(enqueue));
  }
}
