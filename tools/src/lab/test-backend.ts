/**
 * The lab on the test cluster (`--backend test`, the default): the in-process API server with the
 * Jumpstarter and kubelet simulators on its store. The lab reads the store itself (no request, so the
 * counters hold the controllers' requests alone) and the server's request counters.
 */
import { startTestCluster, storePort } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER_IDENTITY,
  simulatorErrorLines,
  type LabCluster,
  type LabClusterOptions,
} from './lab-cluster';
import { readPoolRows } from './pool-status';

export async function startTestLabCluster(options: LabClusterOptions): Promise<LabCluster> {
  const cluster = await startTestCluster({
    crds: options.crds,
    // The app's namespaces are created by applying it, as on a fresh cluster.
    namespaces: ['default'],
    seed: options.seed,
    jumpstarter: options.jumpstarter,
    kubelet: options.kubelet,
  });
  const jumpstarter = cluster.jumpstarter!;
  const kubelet = cluster.kubelet!;
  return {
    backend: 'test',
    description: `test cluster at ${cluster.url}`,
    clock: cluster.clock,
    kubeConfig: cluster.kubeConfig,
    controllerKubeConfig: () => cluster.kubeConfigFor(CONTROLLER_IDENTITY),
    controllerKubeconfigYaml: () => cluster.kubeconfigYaml(CONTROLLER_IDENTITY),
    view: storePort(cluster.store, ['Exporter', 'Lease']),
    leases: jumpstarter.leases,
    processes: kubelet.processes,
    poolRows: (pools) => readPoolRows(cluster.store, pools),
    controllerRequests: () => {
      const byVerb: Record<string, number> = {};
      for (const [verb, n] of Object.entries(cluster.counters.byVerb({ identity: CONTROLLER_IDENTITY })))
        if (n) byVerb[verb] = n;
      return byVerb;
    },
    simulatorErrors: () => simulatorErrorLines([...jumpstarter.errors, ...kubelet.errors]),
    stop: () => cluster.stop(),
  };
}
