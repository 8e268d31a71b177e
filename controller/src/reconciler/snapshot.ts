/**
 * Builds the planner's snapshot of one ExporterSet from the informer caches (see the planner's
 * snapshot.ts for the freshness contract): the set with the newest known status, its class, the
 * Exporters labelled with the set and the Pods and config Secrets named after them, the namespace's
 * Leases, the expectations in flight, and the config Secret data each live instance should hold.
 *
 * The credential Secrets `<exporter>-exporter` are Jumpstarter's; the Secret cache keeps them (see
 * `keepSecret`), so tokens are read from memory. The CA bundle ConfigMap is read with one GET per pass
 * that renders or checks a config (it is one small object, and watching every ConfigMap of a
 * namespace for it would cost more).
 */
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
} from 'virtual-exporters';
import type { CacheView } from '../kube/informer';
import type { PodObject, SecretObject } from '../kube/wire';
import {
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
  if (!cached) return undefined;
  const set = deps.statuses.newest(key, cached);
  expectations.settle(key, (entry) => observed(entry, set, namespace, caches));

  const className = set.spec?.virtualTargetClassName;
  const cls = className ? caches.virtualTargetClasses.get(namespace, className) : undefined;
  const exporters = caches.exporters.byLabel(Labels.exporterSetName, name, namespace);
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
    caBundle ??= deps.core
      .readNamespacedConfigMap({ namespace, name: ref?.name ?? DefaultCaBundle.configMapName })
      .then(
        (configMap) => configMap.data?.[ref?.key ?? DefaultCaBundle.key],
        (error: unknown) => {
          if (isNotFound(error)) return undefined;
          throw error;
        },
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

  const instances: InstanceSnapshot[] = await Promise.all(
    exporters.map(async (exporter): Promise<InstanceSnapshot> => {
      const exporterName = exporter.metadata?.name ?? '';
      const pod = caches.pods.get(namespace, exporterName) as PodView | undefined;
      const configSecret = caches.secrets.get(namespace, configSecretName(exporterName)) as
        SecretView | undefined;
      let desiredConfigSecretData: Record<string, string> | undefined;
      const checkConfig =
        pod !== undefined &&
        LIVE_PHASES.has(pod.status?.phase) &&
        cls !== undefined &&
        isOwnedBy(exporter, set) &&
        exporter.metadata?.deletionTimestamp === undefined &&
        exporter.status?.credential?.name !== undefined &&
        exporter.status?.endpoint !== undefined;
      if (checkConfig) {
        try {
          const rendered = await render(exporterName);
          const secret = rendered.objects.find((o) => o.kind === 'Secret') as SecretView | undefined;
          desiredConfigSecretData = secret?.data ? { ...secret.data } : undefined;
        } catch {
          // Not renderable now (token not issued yet, invalid parameters): only a missing Secret is repaired.
        }
      }
      return {
        exporter,
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
