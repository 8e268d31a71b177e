/**
 * Informer events → ExporterSet keys (SPEC §3 runtime). Handlers decide nothing: they only say which
 * sets to look at again, and the pass reads the current state (level-triggered).
 *
 * Ownership first, the label as a hint (membership.ts, SPEC §3.16):
 * - a set: itself, and the sets that share a waiting lease with it (one of them counts the lease, and a
 *   set that pauses, fills up or goes hands it to the next: lease-owner.ts);
 * - an Exporter: the set that controls it (its controller ownerReference), else the set its
 *   `exporterset.jumpstarter.dev/name` label names — both when they differ (an instance moved by hand);
 * - a Pod or a Secret (config or credential): the set of the Exporter that owns it, else its set label;
 * - a Jumpstarter Lease: every set of its namespace it concerns (`leaseConcernsSet`: its selector
 *   selects the set's template labels, or it names one of the set's instances), and the set of the
 *   Exporter it names;
 * - a VirtualTargetClass: every set of its namespace that uses it;
 * - a ControllerRevision: the set that controls it, else the set its label names (a recorded revision
 *   deleted by hand is recorded again while an instance runs it).
 */
import {
  type ControllerRevision,
  type Exporter,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { ResourceInformer } from '../kube/informer';
import type { WireObject } from '../kube/informer-contract';
import {
  isLeaseEnded,
  labelledSetName,
  leaseConcernsSet,
  nameOf,
  owningExporterName,
  type OwnedMetadata,
} from '../planner';
import { objectKey } from '../queue/object-key';
import type { SnapshotCaches } from './read-set-world';
import { setsOfExporter } from './set-index';

export { setsOfExporter };

export interface HandlerInformers {
  readonly exporterSets: ResourceInformer<ExporterSet>;
  readonly virtualTargetClasses: ResourceInformer<VirtualTargetClass>;
  readonly exporters: ResourceInformer<Exporter>;
  readonly leases: ResourceInformer<Lease>;
  readonly pods: ResourceInformer<WireObject>;
  readonly secrets: ResourceInformer<WireObject>;
  readonly controllerRevisions: ResourceInformer<ControllerRevision>;
}

const EVENTS = ['add', 'update', 'delete'] as const;

function keyOf(namespace: string | undefined, name: string | undefined): string | undefined {
  return namespace && name ? objectKey({ namespace, name }) : undefined;
}

/**
 * The sets of a Pod or a Secret: those of the Exporter that owns it (an instance's Pod and config
 * Secret, Jumpstarter's credential Secret `<exporter>-exporter`, whatever their labels — so a rotated
 * token reaches the instance's config at once, not at the set's next unrelated event), else the set its
 * label names.
 */
export function setsOfOwnedObject(object: WireObject, caches: Pick<SnapshotCaches, 'exporters'>): string[] {
  const namespace = object.metadata?.namespace;
  const ownerName = owningExporterName(object as OwnedMetadata);
  const exporter = namespace && ownerName ? caches.exporters.get(namespace, ownerName) : undefined;
  const keys = exporter ? setsOfExporter(exporter) : [];
  if (keys.length > 0) return keys;
  const labelled = keyOf(namespace, labelledSetName(object as OwnedMetadata));
  return labelled ? [labelled] : [];
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
  for (const name of [nameOf(lease.status?.exporterRef), nameOf(lease.spec?.exporterRef)]) {
    const exporter = name ? caches.exporters.get(namespace, name) : undefined;
    for (const key of exporter ? setsOfExporter(exporter) : []) keys.add(key);
  }
  return [...keys];
}

/** The keys of the other sets that share a waiting (unassigned, not ended) lease with `set`. */
export function setsSharingLeases(
  set: ExporterSet,
  caches: Pick<SnapshotCaches, 'exporterSets' | 'exporters' | 'leases'>,
): string[] {
  const namespace = set.metadata?.namespace;
  if (!namespace) return [];
  const keys = new Set<string>();
  for (const lease of caches.leases.list(namespace)) {
    if (isLeaseEnded(lease) || nameOf(lease.status?.exporterRef) || !leaseConcernsSet(lease, set)) continue;
    for (const key of setsOfLease(lease, caches)) keys.add(key);
  }
  keys.delete(objectKey({ namespace, name: set.metadata?.name ?? '' }));
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
      setsSharingLeases(set, informers).forEach(enqueue);
    });
    informers.exporters.on(event, (exporter) => setsOfExporter(exporter).forEach(enqueue));
    for (const owned of [informers.pods, informers.secrets]) {
      owned.on(event, (object) => setsOfOwnedObject(object, informers).forEach(enqueue));
    }
    informers.leases.on(event, (lease) => setsOfLease(lease, informers).forEach(enqueue));
    informers.virtualTargetClasses.on(event, (cls) => setsOfClass(cls, informers).forEach(enqueue));
    informers.controllerRevisions.on(event, (revision) =>
      setsOfExporter(revision as WireObject).forEach(enqueue),
    );
  }
}
