/**
 * Builds the planner's snapshot of one ExporterSet from the informer caches (see the planner's
 * snapshot.ts for the freshness contract): the set with the newest known status, its class, the
 * Exporters it controls or that carry its label (membership.ts) and the Pods and config Secrets named
 * after them, the namespace's Leases, the expectations in flight, and the config Secret data of each
 * live instance whose config Secret does not hold it.
 *
 * The credential Secrets `<exporter>-exporter` are Jumpstarter's; the Secret cache keeps them (see
 * `keepSecret`), so tokens are read from memory. The CA bundle ConfigMap is read with a GET when a pass
 * renders or checks a config (it is one small object, and watching every ConfigMap of a namespace for
 * it would cost more). Only the first read in a namespace is waited for: later passes use the last
 * value and refresh it in the background once it is `CA_BUNDLE_REUSE_MS` old (bench P2: a GET per pass
 * put a round trip, waiting behind a busy API server, on the path from a Lease event to the refill
 * create). A changed bundle reaches the config Secrets at the first pass after the refresh.
 *
 * The config Secret each live instance should hold is rendered once per distinct input, not once per
 * pass: rendering builds a YAML document per instance, which made up most of a pass's CPU time
 * (bench P2: ~0.6 ms per instance, on the path from a Lease event to the refill create). The memo is
 * keyed by everything a provisioner's render reads — the set's and class's identity and spec, the
 * Exporter's identity, metadata, spec, endpoint and credential, the token and the CA bundle — so a
 * change to any of them renders again; it belongs to the reconciler (its `deps`) and forgets an
 * instance once its Exporter leaves the cache. It keeps a digest of the rendered data, and the Secret
 * cache a digest of each config Secret's data (cache-views.ts `secretCacheView`, bench P4): when they
 * match the instance's config is in sync and no data is handed to the planner; when they differ
 * (drift, a rotated token) the instance is rendered again and the planner gets the data to compare.
 */
import { createHash } from 'node:crypto';
import type { CoreV1Api } from '@kubernetes/client-node';
import {
  DefaultCaBundle,
  Labels,
  configSecretName,
  mergeParameters,
  type Exporter,
  type ExporterSet,
  type Lease,
  type Provisioner,
  type RenderedInstance,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { cachedSecretDigest, secretDataDigest, type CachedSecret } from '../kube/cache-views';
import type { CacheView, WireObject } from '../kube/informer';
import type { PodObject, SecretObject } from '../kube/wire';
import {
  concernsSet,
  isOwnedBy,
  type InstanceSnapshot,
  type PlannerOptions,
  type PlannerSnapshot,
  type PodView,
  type SecretView,
} from '../planner';
import type { Clock } from '../queue/clock';
import { parseObjectKey } from '../queue/object-key';
import type { Expectation, Expectations } from './expectations';
import type { StatusMemo } from './status-memo';

export interface SnapshotCaches {
  readonly exporterSets: CacheView<ExporterSet>;
  readonly virtualTargetClasses: CacheView<VirtualTargetClass>;
  readonly exporters: CacheView<Exporter>;
  readonly leases: CacheView<Lease>;
  readonly pods: CacheView<PodObject>;
  readonly secrets: CacheView<SecretObject>;
}

export interface SnapshotDeps {
  readonly caches: SnapshotCaches;
  readonly core: CoreV1Api;
  readonly provisioner: Provisioner;
  readonly expectations: Expectations;
  readonly statuses: StatusMemo;
  readonly clock: Clock;
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
}

const LIVE_PHASES = new Set(['Pending', 'Running', 'Unknown', undefined]);

/** How long (controller clock) a CA bundle read is used before a pass refreshes it. */
export const CA_BUNDLE_REUSE_MS = 30_000;

type ConfigMapData = Readonly<Record<string, string>> | undefined;

interface ConfigMapRead {
  /** When the value was read (or the refresh in flight was started). */
  at: number;
  /** The first read, until it settles; later passes get `value` at once. */
  first?: Promise<ConfigMapData>;
  value?: ConfigMapData;
  known: boolean;
  refreshing: boolean;
}

/** Per reconciler (its deps object): `namespace/name` → what is known of that ConfigMap's data. */
const configMapReads = new WeakMap<SnapshotDeps, Map<string, ConfigMapRead>>();

/**
 * The data of ConfigMap `namespace/name` (undefined when it does not exist). Only the first read in a
 * namespace is waited for; afterwards a pass gets the last value at once and, when it is older than
 * `CA_BUNDLE_REUSE_MS`, starts a refresh that the next passes use (a failed refresh keeps the value).
 */
function readConfigMapData(deps: SnapshotDeps, namespace: string, name: string): Promise<ConfigMapData> {
  let reads = configMapReads.get(deps);
  if (!reads) {
    reads = new Map();
    configMapReads.set(deps, reads);
  }
  const id = `${namespace}/${name}`;
  const now = deps.clock.now();
  const get = (): Promise<ConfigMapData> =>
    deps.core.readNamespacedConfigMap({ namespace, name }).then(
      (configMap): ConfigMapData => configMap.data,
      (error: unknown): ConfigMapData => {
        if (isNotFound(error)) return undefined;
        throw error;
      },
    );
  const read = reads.get(id);
  if (!read?.known) {
    if (read?.first) return read.first;
    const entry: ConfigMapRead = { at: now, known: false, refreshing: false };
    entry.first = get().then(
      (data) => {
        Object.assign(entry, { value: data, known: true, first: undefined });
        return data;
      },
      (error: unknown) => {
        reads.delete(id); // nothing known yet: the next pass asks again
        throw error;
      },
    );
    reads.set(id, entry);
    return entry.first;
  }
  if (now - read.at >= CA_BUNDLE_REUSE_MS && !read.refreshing) {
    read.refreshing = true;
    get().then(
      (data) => Object.assign(read, { value: data, at: deps.clock.now(), refreshing: false }),
      () => Object.assign(read, { refreshing: false }),
    );
  }
  return Promise.resolve(read.value);
}

/** Digests of a rendered config Secret's inputs and of its data (undefined: not renderable). */
interface RenderedConfig {
  readonly inputs: string;
  readonly digest: string | undefined;
}

/** Per reconciler (its deps object): set key → instance name → the last rendered config. */
const renderedConfigs = new WeakMap<SnapshotDeps, Map<string, Map<string, RenderedConfig>>>();

function configMemoOf(deps: SnapshotDeps): Map<string, Map<string, RenderedConfig>> {
  let memo = renderedConfigs.get(deps);
  if (!memo) {
    memo = new Map();
    renderedConfigs.set(deps, memo);
  }
  return memo;
}

/** Everything of an Exporter a render may read, for the memo's key (not its status beyond these). */
function exporterInputs(exporter: Exporter): unknown[] {
  const { uid, name, namespace, labels, annotations, ownerReferences } = exporter.metadata ?? {};
  return [
    uid,
    name,
    namespace,
    labels,
    annotations,
    ownerReferences,
    exporter.spec,
    exporter.status?.endpoint,
    exporter.status?.credential,
  ];
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: number }).code === 404;
}

/** Whether the cache shows the effect of an applied write (see the planner's `InFlight` table). */
function observed(entry: Expectation, set: ExporterSet, namespace: string, caches: SnapshotCaches): boolean {
  const exporter = caches.exporters.get(namespace, entry.name);
  const pod = caches.pods.get(namespace, entry.name);
  switch (entry.kind) {
    case 'creating':
      return exporter !== undefined;
    case 'deleting':
      return exporter === undefined || exporter.metadata?.deletionTimestamp !== undefined;
    case 'disabling':
      return exporter === undefined || exporter.spec?.enabled === false;
    case 'promoting':
      return exporter === undefined || exporter.metadata?.labels?.[Labels.standby] !== 'true';
    case 'releasing':
      return exporter === undefined || !isOwnedBy(exporter, set);
    case 'rendering':
      return exporter === undefined || pod !== undefined;
    case 'deletingPods':
      return pod === undefined || (entry.podUid !== undefined && pod.metadata?.uid !== entry.podUid);
    case 'labelling': {
      if (exporter === undefined || exporter.metadata?.deletionTimestamp !== undefined) return true;
      const secret = caches.secrets.get(namespace, configSecretName(entry.name));
      const shows = (object: WireObject | undefined, labels: Readonly<Record<string, string>> | undefined) =>
        labels === undefined ||
        object === undefined ||
        Object.entries(labels).every(([key, value]) => object.metadata?.labels?.[key] === value);
      return (
        shows(exporter, entry.labels?.exporter) &&
        shows(pod, entry.labels?.pod) &&
        shows(secret, entry.labels?.configSecret)
      );
    }
  }
}

function decode(value: string | undefined): string | undefined {
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/** Reads the set's world; undefined when the set is not in the cache (deleted). */
export async function readSetWorld(key: string, deps: SnapshotDeps): Promise<SetWorld | undefined> {
  const { caches, expectations } = deps;
  const { namespace, name } = parseObjectKey(key);
  const cached = caches.exporterSets.get(namespace, name);
  const configMemo = configMemoOf(deps);
  if (!cached) {
    configMemo.delete(key);
    return undefined;
  }
  const set = deps.statuses.newest(key, cached);
  expectations.settle(key, (entry) => observed(entry, set, namespace, caches));

  const className = set.spec?.virtualTargetClassName;
  const cls = className ? caches.virtualTargetClasses.get(namespace, className) : undefined;
  // Ownership first (SPEC §3.16): the Exporters a set of this name controls, whatever their labels,
  // and those labelled with it (detached ones, whose names stay taken).
  const exporters = caches.exporters.list(namespace).filter((e) => concernsSet(e, set));
  const byName = new Map(exporters.map((e) => [e.metadata?.name ?? '', e]));

  const tokenOf = (exporter: Exporter): string | undefined => {
    const secretName = exporter.status?.credential?.name;
    const secret = secretName
      ? (caches.secrets.get(namespace, secretName) as SecretView | undefined)
      : undefined;
    return decode(secret?.data?.token);
  };
  let caBundle: Promise<string | undefined> | undefined;
  const caBundleOf = (): Promise<string | undefined> => {
    const ref = cls?.spec?.caBundleConfigMapRef;
    caBundle ??= readConfigMapData(deps, namespace, ref?.name ?? DefaultCaBundle.configMapName).then(
      (data) => data?.[ref?.key ?? DefaultCaBundle.key],
    );
    return caBundle;
  };
  const render = async (instanceName: string): Promise<RenderedInstance> => {
    const exporter = byName.get(instanceName);
    if (!exporter) throw new Error(`instance ${namespace}/${instanceName} is not in the cache`);
    if (!cls) throw new Error(`the VirtualTargetClass ${className} of ${key} does not exist`);
    const token = tokenOf(exporter);
    const ca = await caBundleOf();
    return deps.provisioner.render({
      exporterSet: set,
      virtualTargetClass: cls,
      parameters: mergeParameters(cls.spec?.parameters, set.spec?.parameters),
      exporter,
      token: token ?? '',
      ...(ca !== undefined ? { caBundle: ca } : {}),
    });
  };

  const previousConfigs = configMemo.get(key);
  const configs = new Map<string, RenderedConfig>();
  configMemo.set(key, configs);
  let setInputs: string | undefined;
  /** The data the config Secret should hold when the live one (if any) does not hold it already. */
  const desiredConfigOf = async (
    exporter: Exporter,
    live: CachedSecret | undefined,
  ): Promise<Readonly<Record<string, string>> | undefined> => {
    const exporterName = exporter.metadata?.name ?? '';
    const token = tokenOf(exporter);
    const ca = await caBundleOf();
    // What every instance of the pass shares (the CA bundle is one read per pass), serialized once.
    setInputs ??= JSON.stringify([
      set.metadata?.uid,
      set.metadata?.name,
      set.spec,
      cls?.metadata?.uid,
      cls?.spec,
      ca,
    ]);
    const inputs = createHash('sha256')
      .update(setInputs)
      .update('\u0000')
      .update(JSON.stringify([...exporterInputs(exporter), token]))
      .digest('base64');
    const liveDigest = live !== undefined ? cachedSecretDigest(live) : undefined;
    const previous = previousConfigs?.get(exporterName);
    if (previous?.inputs === inputs) {
      configs.set(exporterName, previous);
      // In sync, or not renderable (only a missing Secret is repaired): nothing to compare.
      if (previous.digest === undefined || previous.digest === liveDigest) return undefined;
      // The live Secret differs from what these inputs render to: render again for the data.
    }
    let data: Readonly<Record<string, string>> | undefined;
    try {
      const rendered = await render(exporterName);
      data = (rendered.objects.find((o) => o.kind === 'Secret') as SecretView | undefined)?.data;
    } catch {
      // Not renderable now (token not issued yet, invalid parameters): only a missing Secret is repaired.
    }
    const digest = data !== undefined ? secretDataDigest(data) : undefined;
    configs.set(exporterName, { inputs, digest: digest === liveDigest ? liveDigest : digest });
    return digest === liveDigest ? undefined : data;
  };

  const instances: InstanceSnapshot[] = await Promise.all(
    exporters.map(async (exporter): Promise<InstanceSnapshot> => {
      const exporterName = exporter.metadata?.name ?? '';
      const pod = caches.pods.get(namespace, exporterName) as PodView | undefined;
      const configSecret = caches.secrets.get(namespace, configSecretName(exporterName)) as
        CachedSecret | undefined;
      const checkConfig =
        pod !== undefined &&
        LIVE_PHASES.has(pod.status?.phase) &&
        cls !== undefined &&
        isOwnedBy(exporter, set) &&
        exporter.metadata?.deletionTimestamp === undefined &&
        exporter.status?.credential?.name !== undefined &&
        exporter.status?.endpoint !== undefined;
      const desiredConfigSecretData = checkConfig ? await desiredConfigOf(exporter, configSecret) : undefined;
      // Before its first Pod: a credential Secret without a token (or not Jumpstarter's) blocks the render.
      const credentialTokenMissing =
        pod === undefined && exporter.status?.credential?.name !== undefined && !tokenOf(exporter);
      return {
        exporter,
        ...(credentialTokenMissing ? { credentialTokenMissing } : {}),
        ...(pod !== undefined ? { pod } : {}),
        ...(configSecret !== undefined ? { configSecret } : {}),
        ...(desiredConfigSecretData !== undefined ? { desiredConfigSecretData } : {}),
      };
    }),
  );

  const snapshot: PlannerSnapshot = {
    set,
    virtualTargetClass: cls,
    provisioner: deps.provisioner,
    instances,
    leases: caches.leases.list(namespace),
    inFlight: expectations.inFlight(key),
    now: deps.clock.now(),
    ...(deps.plannerOptions !== undefined ? { options: deps.plannerOptions } : {}),
  };
  return { key, snapshot, exporters: byName, render };
}
