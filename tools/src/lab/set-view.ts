/**
 * The pools' ExporterSets as the lab sees them on a real API server: one client-node informer (list,
 * then watch) per namespace, read without a request at every sample — what `kubectl get exportersets
 * -w` shows. A list or watch that fails is started again after a second (the informer stops on an
 * error that is not a 410); the rows keep the last state seen meanwhile.
 */
import {
  CustomObjectsApi,
  makeInformer,
  type Informer,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  type ObjectCache,
} from '@kubernetes/client-node';
import { GROUP, Plurals, VERSION, type ExporterSet } from 'virtual-exporters/internal';

export interface SetView {
  /** The set as last seen, or undefined before it was (or after it is gone). */
  get(namespace: string, name: string): ExporterSet | undefined;
  /** Stops every informer. */
  stop(): Promise<void>;
}

const RESTART_MS = 1000;

/** Starts the informers and resolves once each has listed its namespace. */
export async function startSetView(
  kubeConfig: KubeConfig,
  namespaces: readonly string[],
  onError: (error: unknown) => void = () => undefined,
): Promise<SetView> {
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  const collection = { group: GROUP, version: VERSION, plural: Plurals.ExporterSet };
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const informers = new Map<string, Informer<KubernetesObject> & ObjectCache<KubernetesObject>>();
  for (const namespace of new Set(namespaces)) {
    const informer = makeInformer<KubernetesObject>(
      kubeConfig,
      `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${collection.plural}`,
      async () =>
        (await api.listNamespacedCustomObject({
          ...collection,
          namespace,
        })) as KubernetesListObject<KubernetesObject>,
    );
    informer.on('error', (error: unknown) => {
      if (stopped) return;
      onError(error);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopped) informer.start().catch(onError);
      }, RESTART_MS);
      timers.add(timer);
    });
    informers.set(namespace, informer);
  }
  await Promise.all([...informers.values()].map((informer) => informer.start()));
  return {
    get: (namespace, name) => informers.get(namespace)?.get(name, namespace) as ExporterSet | undefined,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...informers.values()].map((informer) => informer.stop()));
    },
  };
}
