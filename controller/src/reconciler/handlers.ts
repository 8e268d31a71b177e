/**
 * Informer events → ExporterSet keys (SPEC §3 runtime). Handlers decide nothing: they only say which
 * sets to look at again, and the pass reads the current state (level-triggered).
 *
 * - a set: itself;
 * - Exporters, Pods and config Secrets: the set named by their `exporterset.jumpstarter.dev/name` label;
 * - an Exporter's credential Secret: the set of the Exporter that owns it;
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
} from 'virtual-exporters/internal';
import type { ResourceInformer, WireObject } from '../kube/informer';
import { leaseConcernsSet, nameOf } from '../planner';
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

/**
 * The set of a Secret: a config Secret carries the set label; an Exporter's credential Secret
 * (Jumpstarter's, unlabelled) is owned by the Exporter, whose label names the set — so a rotated token
 * reaches the instance's config at once, not at the set's next unrelated event.
 */
export function setOfSecret(
  secret: WireObject,
  caches: Pick<SnapshotCaches, 'exporters'>,
): string | undefined {
  const labelled = labelledSet(secret);
  if (labelled) return labelled;
  const namespace = secret.metadata?.namespace;
  const owners = (secret.metadata as { ownerReferences?: { kind?: string; name?: string }[] } | undefined)
    ?.ownerReferences;
  const owner = owners?.find((o) => o.kind === 'Exporter' && typeof o.name === 'string');
  const exporter = namespace && owner?.name ? caches.exporters.get(namespace, owner.name) : undefined;
  return exporter ? labelledSet(exporter) : undefined;
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
    for (const owned of [informers.exporters, informers.pods] as ResourceInformer<WireObject>[]) {
      owned.on(event, (object) => {
        const key = labelledSet(object);
        if (key) enqueue(key);
      });
    }
    informers.secrets.on(event, (secret) => {
      const key = setOfSecret(secret, informers);
      if (key) enqueue(key);
    });
    informers.leases.on(event, (lease) => setsOfLease(lease, informers).forEach(enqueue));
    informers.virtualTargetClasses.on(event, (cls) => setsOfClass(cls, informers).forEach(enqueue));
  }
}
