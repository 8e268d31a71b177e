/**
 * What an applied action should show in the informer caches (`effectOf`, recorded as an expectation),
 * and whether the caches show it yet (`isObserved`, which settles it): the two sides of the planner's
 * `InFlight` table. The finalizer writes and config Secret syncs expect nothing, since the next pass
 * reads their effect directly.
 */
import {
  Annotations,
  Labels,
  configSecretName,
  type Exporter,
  type ExporterSet,
} from 'virtual-exporters/internal';
import type { CacheView, WireObject } from '../kube/informer-contract';
import type { PodObject, SecretObject } from '../kube/wire';
import { isOwnedBy, type Action } from '../planner';
import type { Expectation } from './expectations';

export type Effect = Omit<Expectation, 'at'>;

/** The caches an expectation is checked against. */
export interface EffectCaches {
  readonly exporters: CacheView<Exporter>;
  readonly pods: CacheView<PodObject>;
  readonly secrets: CacheView<SecretObject>;
}

/** The effect `action` has once it is applied; undefined when none is waited for. */
export function effectOf(action: Action): Effect | undefined {
  switch (action.type) {
    case 'CreateExporter':
      return { kind: 'creating', name: action.name, standby: action.standby };
    case 'PromoteStandby':
      return { kind: 'promoting', name: action.name };
    case 'RenderInstance':
      return { kind: 'rendering', name: action.name };
    case 'LabelInstance':
      return {
        kind: 'labelling',
        name: action.name,
        labels: {
          ...(action.exporter ? { exporter: action.exporter } : {}),
          ...(action.pod ? { pod: action.pod } : {}),
          ...(action.configSecret ? { configSecret: action.configSecret } : {}),
        },
      };
    case 'DeletePod':
      return { kind: 'deletingPods', name: action.name, ...(action.podUid ? { podUid: action.podUid } : {}) };
    case 'ReleaseExporter':
      return { kind: 'releasing', name: action.name };
    case 'DisableExporter':
      return { kind: 'disabling', name: action.name };
    case 'DeleteExporter':
      return { kind: 'deleting', name: action.name };
    case 'AddFinalizer':
    case 'RemoveFinalizer':
    case 'SyncConfigSecret':
      return undefined;
    // Revisions are named after their hash: a record or delete the cache does not show yet is sent
    // again and answered AlreadyExists or NotFound.
    case 'RecordRevision':
    case 'DeleteRevision':
      return undefined;
  }
}

/** Whether the caches show the effect of an applied write. */
export function isObserved(
  entry: Expectation,
  set: ExporterSet,
  namespace: string,
  caches: EffectCaches,
): boolean {
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
      // A lifecycle provisioner's instance has no Pod: its realise shows as the recorded placement.
      return (
        exporter === undefined ||
        pod !== undefined ||
        exporter.metadata?.annotations?.[Annotations.placement] !== undefined
      );
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
