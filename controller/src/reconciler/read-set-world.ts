/**
 * Builds the planner's snapshot of one ExporterSet from the informer caches (see the planner's
 * `PlannerSnapshot` for the freshness contract): the set with the newest known status, its class, the
 * Exporters it controls or that carry its label (membership.ts; read from the set index, set-index.ts)
 * and the Pods and config Secrets named after them, the namespace's Leases and other sets (one set
 * counts a lease their selectors share), the expectations in flight, and the config Secret data of
 * each live instance whose config Secret does not hold it (render-memo.ts). A set whose class names
 * another provisioner is not rendered at all: the planner leaves it alone.
 */
import {
  Labels,
  configSecretName,
  type Exporter,
  type ExporterSet,
  type RenderedInstance,
} from 'virtual-exporters/internal';
import type { CachedSecret } from '../kube/cache-views';
import type { CacheView } from '../kube/informer-contract';
import type { InformerName, WatchedObjects } from '../kube/informers';
import {
  concernsSet,
  isOwnedBy,
  recordedRevisions,
  resolvePin,
  viewOf,
  type InstanceSnapshot,
  type PlannerOptions,
  type PlannerSnapshot,
  type PodView,
} from '../planner';
import { elapsedOf, type Clock } from '../queue/clock';
import { parseObjectKey } from '../queue/object-key';
import { isObserved } from './effects';
import { observeInstance, type FirstObserved } from './first-observed';
import type { Expectations } from './expectations';
import { SetLifecycle } from './instance-lifecycle';
import { SetRenderer, type RenderDeps } from './instance-render';
import type { RenderMemo } from './render-memo';
import { SET_INDEX } from './set-index';
import type { PodWaits } from './pod-wait-tracker';
import type { StatusMemo } from './status-memo';

/** The caches a set's pass reads (every informer's but the operations', which have their own pass). */
export type SnapshotCaches = {
  readonly [K in Exclude<InformerName, 'exporterOperations'>]: CacheView<WatchedObjects[K]>;
};

export interface SnapshotDeps extends RenderDeps {
  readonly caches: SnapshotCaches;
  readonly renders: RenderMemo;
  readonly expectations: Expectations;
  readonly statuses: StatusMemo;
  /** Instances whose Pod could not be started, since the controller's first try. */
  readonly podWaits: PodWaits;
  readonly clock: Clock;
  /** When each fact was first observed (§3.17); without it every fact counts as seen at a first look. */
  readonly firstObserved?: FirstObserved;
  readonly plannerOptions?: Partial<PlannerOptions>;
}

/** One pass's view of a set: the snapshot, and how to render its instances for the executor. */
export interface SetWorld {
  readonly key: string;
  readonly snapshot: PlannerSnapshot;
  /** The cached Exporters of the set by name (preconditions of patches and deletes). */
  readonly exporters: ReadonlyMap<string, Exporter>;
  /** Renders an instance (config Secret, Pod); throws when it cannot be rendered yet. */
  render(name: string): Promise<RenderedInstance>;
  /** For a provisioner with a lifecycle: realise, teardown and the leftover sweep of this pass. */
  readonly lifecycle?: SetLifecycle;
}

const LIVE_PHASES = new Set(['Pending', 'Running', 'Unknown', undefined]);

/** Reads the set's world; undefined when the set is not in the cache (deleted). */
export async function readSetWorld(key: string, deps: SnapshotDeps): Promise<SetWorld | undefined> {
  const { caches, expectations } = deps;
  const { namespace, name } = parseObjectKey(key);
  const cached = caches.exporterSets.get(namespace, name);
  if (!cached) return undefined;
  const set = deps.statuses.newest(key, cached);
  expectations.settle(key, (entry) => isObserved(entry, set, namespace, caches));

  const className = set.spec?.virtualTargetClassName;
  const cls = className ? caches.virtualTargetClasses.get(namespace, className) : undefined;
  // Ownership first (SPEC §3.16): the Exporters a set of this name controls, whatever their labels,
  // and those labelled with it (detached ones, whose names stay taken) — from the set index, not a
  // scan of the namespace (set-index.ts).
  const exporters = caches.exporters.byIndex(SET_INDEX, key).filter((e) => concernsSet(e, set));
  const byName = new Map(exporters.map((e) => [e.metadata?.name ?? '', e]));
  deps.podWaits.keepOnly(key, new Set([...byName.keys()].filter((n) => !caches.pods.get(namespace, n))));
  // A set pinned to a recorded revision renders its instances from that revision's inputs (pinning.ts).
  const revisions = caches.controllerRevisions
    .byIndex(SET_INDEX, key)
    .filter((r) => r.metadata?.labels?.[Labels.exporterSetName] === name);
  const view = viewOf(set, cls, resolvePin(set, recordedRevisions(set, revisions)));
  const renderer = new SetRenderer(key, view.set, view.cls, byName, deps);
  // The provisioner before any render (SPEC §3.13): a set of another provisioner costs no render.
  const ours = cls !== undefined && cls.spec?.provisioner === deps.provisioner.name;
  const desiredConfig = ours ? deps.renders.pass(key, view.cls ?? cls, renderer) : undefined;
  const now = deps.clock.now();
  const observations = deps.firstObserved?.pass(key, now, elapsedOf(deps.clock));
  const lifecycle =
    ours && deps.provisioner.lifecycle !== undefined
      ? new SetLifecycle(
          { lifecycle: deps.provisioner.lifecycle, setName: name, input: renderer.lifecycleInput },
          byName,
        )
      : undefined;
  const observed = lifecycle ? await lifecycle.observeAll() : undefined;

  const instanceOf = async (exporter: Exporter): Promise<InstanceSnapshot> => {
    const exporterName = exporter.metadata?.name ?? '';
    const pod = caches.pods.get(namespace, exporterName) as PodView | undefined;
    const configSecret = caches.secrets.get(namespace, configSecretName(exporterName)) as
      CachedSecret | undefined;
    const desiredConfigSecretData =
      desiredConfig && configIsChecked(exporter, pod, set)
        ? await desiredConfig(exporter, configSecret)
        : undefined;
    // Before its first Pod: a credential Secret without a token (or not Jumpstarter's) blocks the render.
    const credentialTokenMissing =
      pod === undefined && exporter.status?.credential?.name !== undefined && !renderer.tokenOf(exporter);
    const observation = observed?.get(exporterName);
    const podWriteFailure =
      pod === undefined && observation === undefined ? deps.podWaits.of(key, exporterName) : undefined;
    return {
      exporter,
      ...(observation !== undefined ? { observation } : {}),
      ...(observations ? { observed: observeInstance(observations, { exporter, pod, observation }) } : {}),
      ...(credentialTokenMissing ? { credentialTokenMissing } : {}),
      ...(podWriteFailure !== undefined ? { podWriteFailure } : {}),
      ...(pod !== undefined ? { pod } : {}),
      ...(configSecret !== undefined ? { configSecret } : {}),
      ...(desiredConfigSecretData !== undefined ? { desiredConfigSecretData } : {}),
    };
  };

  const snapshot: PlannerSnapshot = {
    set,
    virtualTargetClass: cls,
    provisioner: deps.provisioner,
    instances: await Promise.all(exporters.map(instanceOf)),
    revisions,
    leases: caches.leases.list(namespace),
    peers: caches.exporterSets
      .list(namespace)
      .filter((peer) => peer.metadata?.name !== name)
      .map((peer) => ({
        set: peer,
        classExists:
          caches.virtualTargetClasses.get(namespace, peer.spec?.virtualTargetClassName ?? '') !== undefined,
      })),
    inFlight: expectations.inFlight(key),
    now,
    ...(observations ? { observingSince: observations.since } : {}),
    ...(deps.plannerOptions !== undefined ? { options: deps.plannerOptions } : {}),
  };
  observations?.done();
  return {
    key,
    snapshot,
    exporters: byName,
    render: renderer.render,
    ...(lifecycle !== undefined ? { lifecycle } : {}),
  };
}

/** Whether the config Secret of a live, owned instance with a credential and an endpoint is checked. */
function configIsChecked(exporter: Exporter, pod: PodView | undefined, set: ExporterSet): boolean {
  return (
    pod !== undefined &&
    LIVE_PHASES.has(pod.status?.phase) &&
    isOwnedBy(exporter, set) &&
    exporter.metadata?.deletionTimestamp === undefined &&
    exporter.status?.credential?.name !== undefined &&
    exporter.status?.endpoint !== undefined
  );
}
