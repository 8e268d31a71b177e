/**
 * The controller's informers (SPEC §3 runtime): ExporterSets, VirtualTargetClasses, Exporters,
 * Jumpstarter Leases, Pods, Secrets, ExporterOperations and the sets' ControllerRevisions (filtered on
 * the server by the set label), over all namespaces or the `--namespace` list.
 *
 * Filtering. Exporters: a set's instances are the Exporters it controls, whatever their labels
 * (SPEC §3.16: upstream's controller labels them with the template labels only), so they cannot be
 * filtered by label on the server. They are watched unfiltered and kept in the cache only when an
 * ExporterSet controls them or they carry the set label (`keepExporter`: detached instances keep the
 * label); Jumpstarter's other Exporters (hardware, other controllers') are dropped as they arrive.
 * Pods: an instance's Pod is the one its Exporter owns, whatever its labels. Ours and upstream's carry
 * `exporterset.jumpstarter.dev/name`, but an adopted instance's Pod may not (made by another version,
 * or relabelled by hand); unseen, it would look missing and the controller would try to create it again
 * at every expectation timeout. So Pods are watched unfiltered and kept only when labelled with a set
 * or owned by a Jumpstarter Exporter (`keepPod`); every other Pod is dropped as it arrives (it costs
 * watch traffic, not memory). Sets, classes and Leases cannot be filtered (Leases are labelled by
 * their clients).
 *
 * Secrets: the config Secrets carry our label, but the Exporter credential Secrets `<exporter>-exporter`
 * are created by Jumpstarter without it, and the controller needs their tokens to render and to re-sync
 * configs when a token rotates. So Secrets are watched unfiltered on the server and kept in the cache
 * only when an Exporter owns them or they carry our label (`keepSecret`): every other Secret of the
 * namespace is dropped as it arrives. A token is then read from memory, never with a GET per pass.
 *
 * Transforms (what the cache keeps of an object, cache-views.ts): every kind loses
 * `metadata.managedFields` and shares its repeated short strings; a Pod is kept as what the controller
 * reads of it, not its spec; an Exporter without the status fields nothing reads; a Secret with only
 * its `token`, and a config Secret with a digest of its data instead of the data.
 *
 * Lists come in pages (`listPageSize`, reflector.ts), each cut down before the next is asked for.
 */
import {
  GROUP,
  JUMPSTARTER_GROUP,
  Kinds,
  Labels,
  type ControllerRevision,
  type Exporter,
  type ExporterOperation,
  type ExporterSet,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { compactObject, exporterCacheView, podCacheView, secretCacheView } from './cache-views';
import type { KubeClients } from './clients';
import type { CustomObjectClient } from './custom-objects';
import { ResourceInformer } from './informer';
import type {
  InformerErrorContext,
  InformerOptions,
  InformerSource,
  ListOf,
  WireObject,
} from './informer-contract';
import { collectionPath, PodResource, SecretResource, type ApiResource } from './resources';
import { toWire, type PodObject, type SecretObject } from './wire';

export { podCacheView, withoutManagedFields } from './cache-views';

/** What each informer caches, by the informer's name (Leases are Jumpstarter's). */
export interface WatchedObjects {
  readonly exporterSets: ExporterSet;
  readonly virtualTargetClasses: VirtualTargetClass;
  readonly exporters: Exporter;
  readonly leases: Lease;
  readonly pods: PodObject;
  readonly secrets: SecretObject;
  readonly exporterOperations: ExporterOperation;
  /** The sets' recorded revisions (labelled with their set). */
  readonly controllerRevisions: ControllerRevision;
}

export type InformerName = keyof WatchedObjects;

/** One informer per watched kind. */
export type InformersByName = { readonly [K in InformerName]: ResourceInformer<WatchedObjects[K]> };

/** The label filter of each informer unless overridden; absent: unfiltered. */
export const DEFAULT_LABEL_SELECTORS: Readonly<Partial<Record<InformerName, string>>> = {
  // The sets' revisions carry the set label; other controllers' ControllerRevisions are not listed.
  controllerRevisions: Labels.exporterSetName,
};

/** The Exporters the controller keeps: those an ExporterSet controls, and those labelled with a set. */
export function keepExporter(exporter: WireObject): boolean {
  const metadata = exporter.metadata as
    | (WireObject['metadata'] & {
        ownerReferences?: { apiVersion?: string; kind?: string; controller?: boolean }[];
      })
    | undefined;
  if (metadata?.labels?.[Labels.exporterSetName] !== undefined) return true;
  const refs = metadata?.ownerReferences;
  return (
    Array.isArray(refs) &&
    refs.some(
      (ref) =>
        ref?.controller === true && ref.kind === Kinds.ExporterSet && ref.apiVersion?.split('/')[0] === GROUP,
    )
  );
}

/** Labelled with a set, or owned by a Jumpstarter Exporter. */
function labelledOrOwnedByExporter(object: WireObject): boolean {
  const metadata = object.metadata as
    (WireObject['metadata'] & { ownerReferences?: { apiVersion?: string; kind?: string }[] }) | undefined;
  if (metadata?.labels?.[Labels.exporterSetName] !== undefined) return true;
  const refs = metadata?.ownerReferences;
  return (
    Array.isArray(refs) &&
    refs.some((ref) => ref?.kind === 'Exporter' && ref.apiVersion?.split('/')[0] === JUMPSTARTER_GROUP)
  );
}

/** The Secrets the controller keeps: ours (labelled) and those an Exporter owns (its credential). */
export const keepSecret = labelledOrOwnedByExporter;

/** The Pods the controller keeps: ours (labelled) and those an Exporter owns (an adopted instance's). */
export const keepPod = labelledOrOwnedByExporter;

/** The transform of each informer (cache-views.ts). */
const DEFAULT_TRANSFORM: Readonly<Record<InformerName, (object: WireObject) => WireObject>> = {
  exporterSets: (object) => compactObject(object),
  virtualTargetClasses: (object) => compactObject(object),
  exporters: (object) => exporterCacheView(object),
  leases: (object) => compactObject(object),
  pods: (object) => podCacheView(object),
  secrets: (object) => secretCacheView(object),
  exporterOperations: (object) => compactObject(object),
  controllerRevisions: (object) => compactObject(object),
};

/** Client-side filters of the informers that have one. */
const DEFAULT_KEEP: Readonly<Partial<Record<InformerName, (object: WireObject) => boolean>>> = {
  exporters: keepExporter,
  pods: keepPod,
  secrets: keepSecret,
};

export interface ControllerInformersOptions extends Pick<
  InformerOptions,
  'namespaces' | 'clock' | 'restartBackoff' | 'listPageSize'
> {
  /** Overrides of `DEFAULT_LABEL_SELECTORS`; `null` removes an informer's filter. */
  readonly labelSelectors?: Partial<Record<InformerName, string | null>>;
  readonly onError?: (error: unknown, context: InformerErrorContext) => void;
}

export interface ControllerInformers extends InformersByName {
  /** Every informer, for starting, stopping and readiness. */
  readonly all: readonly ResourceInformer<WireObject>[];
  start(): void;
  /** Resolves when every informer's cache is synced; rejects if they are stopped first. */
  readonly synced: Promise<void>;
  hasSynced(): boolean;
  stop(): Promise<void>;
}

function customSource<T>(client: CustomObjectClient<T>): InformerSource<T> {
  return {
    resource: client.resource.plural,
    path: (namespace) => collectionPath(client.resource, namespace),
    list: (namespace, labelSelector, page) => client.list(namespace, labelSelector, page),
  };
}

/** The query of a typed core list: selector and page. */
type CoreListQuery = { labelSelector?: string; limit?: number; _continue?: string };

function coreSource<T>(
  resource: ApiResource,
  name: InformerName,
  list: (
    namespace: string | undefined,
    query: CoreListQuery,
  ) => Promise<{ metadata?: { resourceVersion?: string; _continue?: string }; items: unknown[] }>,
): InformerSource<T> {
  const transform = DEFAULT_TRANSFORM[name];
  const keep = DEFAULT_KEEP[name];
  return {
    resource: resource.plural,
    path: (namespace) => collectionPath(resource, namespace),
    // Typed core lists carry Dates; the cache holds wire JSON like the watch events. Each item is
    // filtered, then turned to wire JSON and cut down on its own, so a page is never copied whole and
    // the strings the transform interns stay shared.
    list: async (namespace, labelSelector, page) => {
      const typed = await list(namespace, {
        ...(labelSelector !== undefined ? { labelSelector } : {}),
        ...(page.limit !== undefined ? { limit: page.limit } : {}),
        ...(page.continue !== undefined ? { _continue: page.continue } : {}),
      });
      const items: unknown[] = [];
      for (const item of typed.items) {
        if (!keep || keep(item as WireObject)) items.push(transform(toWire(item as WireObject)));
      }
      const { resourceVersion, _continue } = typed.metadata ?? {};
      return {
        metadata: {
          ...(resourceVersion !== undefined ? { resourceVersion } : {}),
          ...(_continue ? { continue: _continue } : {}),
        },
        items,
      } as ListOf<T>;
    },
  };
}

export function createInformers(
  clients: KubeClients,
  options: ControllerInformersOptions = {},
): ControllerInformers {
  const { core } = clients;
  const selector = (name: InformerName): string | undefined => {
    const override = options.labelSelectors?.[name];
    if (override === null) return undefined;
    return override ?? DEFAULT_LABEL_SELECTORS[name];
  };
  const make = <T extends WireObject>(name: InformerName, source: InformerSource<T>) => {
    const labelSelector = selector(name);
    const keep = DEFAULT_KEEP[name];
    return new ResourceInformer<T>(source, {
      ...(keep !== undefined ? { keep } : {}),
      transform: DEFAULT_TRANSFORM[name],
      kubeConfig: clients.kubeConfig,
      ...(options.namespaces !== undefined ? { namespaces: options.namespaces } : {}),
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      ...(options.restartBackoff !== undefined ? { restartBackoff: options.restartBackoff } : {}),
      ...(options.listPageSize !== undefined ? { listPageSize: options.listPageSize } : {}),
      ...(options.onError !== undefined ? { onError: options.onError } : {}),
      ...(labelSelector !== undefined ? { labelSelector } : {}),
    });
  };

  const exporterSets = make<ExporterSet>('exporterSets', customSource(clients.exporterSets));
  const virtualTargetClasses = make<VirtualTargetClass>(
    'virtualTargetClasses',
    customSource(clients.virtualTargetClasses),
  );
  const exporters = make<Exporter>('exporters', customSource(clients.exporters));
  const leases = make<Lease>('leases', customSource(clients.leases));
  const pods = make<PodObject>(
    'pods',
    coreSource(PodResource, 'pods', (namespace, query) =>
      namespace === undefined
        ? core.listPodForAllNamespaces(query)
        : core.listNamespacedPod({ namespace, ...query }),
    ),
  );
  const secrets = make<SecretObject>(
    'secrets',
    coreSource(SecretResource, 'secrets', (namespace, query) =>
      namespace === undefined
        ? core.listSecretForAllNamespaces(query)
        : core.listNamespacedSecret({ namespace, ...query }),
    ),
  );
  const exporterOperations = make<ExporterOperation>(
    'exporterOperations',
    customSource(clients.exporterOperations),
  );
  const controllerRevisions = make<ControllerRevision>(
    'controllerRevisions',
    customSource(clients.controllerRevisions),
  );
  const all = [
    exporterSets,
    virtualTargetClasses,
    exporters,
    leases,
    pods,
    secrets,
    exporterOperations,
    controllerRevisions,
  ] as ResourceInformer<WireObject>[];
  const synced = Promise.all(all.map((informer) => informer.synced)).then(() => undefined);
  synced.catch(() => undefined);
  return {
    exporterSets,
    virtualTargetClasses,
    exporters,
    leases,
    pods,
    secrets,
    exporterOperations,
    controllerRevisions,
    all,
    start: () => all.forEach((informer) => informer.start()),
    synced,
    hasSynced: () => all.every((informer) => informer.hasSynced()),
    stop: async () => {
      await Promise.all(all.map((informer) => informer.stop()));
    },
  };
}
