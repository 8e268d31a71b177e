/**
 * The lab on the real Kubernetes (`--backend kube`): etcd, kube-apiserver and kube-controller-manager
 * (its garbage collector) from the built binaries (`startKubeCluster`, VIRTUAL_EXPORTERS_KUBE_BIN),
 * the Jumpstarter and kubelet simulators as clients of the server (`startRemoteSimulators`, under
 * their own identity), and the same example pools. Nothing reads the server's storage: the lab's
 * reads come from watch-fed views (the simulators' port for Exporters and Leases, an informer per
 * namespace for the ExporterSets), its leases are requests of the simulators' identity, and the
 * controllers' requests are counted from the server's audit log (by user: the controllers
 * authenticate with a client certificate of their identity; like every identity of the run, it is in
 * `system:masters`, as the test cluster authorizes everything too).
 */
import { realClock, startKubeCluster, startRemoteSimulators } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER_IDENTITY,
  simulatorErrorLines,
  type LabCluster,
  type LabClusterOptions,
} from './lab-cluster';
import { poolRow } from './pool-status';
import { startSetView } from './set-view';

/** Whom the simulators' requests (the lab's leases among them) are from. */
export const SIMULATORS_IDENTITY = 'simulators';

export async function startKubeLabCluster(options: LabClusterOptions): Promise<LabCluster> {
  const namespaces = [...new Set(options.namespaces)];
  // Each namespace waits for its default ServiceAccount: Pods are refused without it.
  const cluster = await startKubeCluster({ crds: options.crds, namespaces: ['default', ...namespaces] });
  try {
    const sims = await startRemoteSimulators({
      kubeConfig: cluster.kubeConfigFor(SIMULATORS_IDENTITY),
      namespaces,
      jumpstarter: options.jumpstarter,
      kubelet: options.kubelet,
    });
    cluster.onStop(() => sims.stop());
    const sets = await startSetView(cluster.kubeConfig, namespaces);
    cluster.onStop(() => sets.stop());
    const { kubernetes, etcd } = cluster.versions;
    return {
      backend: 'kube',
      description:
        `kube-apiserver ${kubernetes ?? '(version unknown)'} at ${cluster.url} ` +
        `(etcd ${etcd ?? '(version unknown)'}, kube-controller-manager)`,
      clock: realClock(),
      kubeConfig: cluster.kubeConfig,
      controllerKubeConfig: () => cluster.kubeConfigFor(CONTROLLER_IDENTITY),
      controllerKubeconfigYaml: () => cluster.kubeconfigYaml(CONTROLLER_IDENTITY),
      view: sims.port,
      leases: sims.jumpstarter!.leases,
      processes: sims.processes,
      poolRows: (pools) => pools.map((p) => poolRow(p.name, sets.get(p.namespace, p.name))),
      controllerRequests: () => {
        const byVerb: Record<string, number> = {};
        for (const { verb } of cluster.audit.requests({ user: CONTROLLER_IDENTITY }))
          byVerb[verb] = (byVerb[verb] ?? 0) + 1;
        return byVerb;
      },
      simulatorErrors: () => simulatorErrorLines([...sims.jumpstarter!.errors, ...sims.kubelet!.errors]),
      stop: () => cluster.stop(),
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
