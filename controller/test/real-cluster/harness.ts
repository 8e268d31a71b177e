/**
 * Scenarios on the real Kubernetes: kube-apiserver, etcd and kube-controller-manager (its garbage
 * collector), the install applied with kubectl, the Jumpstarter and kubelet simulators as clients of
 * the server (startRemoteSimulators), and the controller under its ServiceAccount token. Reads go
 * through the API as the admin; every request the controller made is in the server's audit log.
 */
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import {
  API_VERSION,
  GROUP,
  JUMPSTARTER_GROUP,
  Labels,
  Plurals,
  VERSION,
  type Exporter,
  type ExporterSet,
  type ExporterSetSpec,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import {
  startKubeCluster,
  startRemoteSimulators,
  type AuditedRequest,
  type KubeCluster,
  type RemoteSimulators,
} from 'virtual-exporters-test-cluster';
import type { Manager } from '../../src/manager';
import type { Options } from '../../src/process/options';
import { NS, TEMPLATE_LABELS } from '../scenarios/support';
import { CONTROLLER_USER, installYaml, kubectlApply, startControllerAsServiceAccount } from './support';

// The same namespace and template labels as the in-process scenarios.
export { NS, TEMPLATE_LABELS } from '../scenarios/support';

const sets = { group: GROUP, version: VERSION, plural: Plurals.ExporterSet };
const classes = { group: GROUP, version: VERSION, plural: Plurals.VirtualTargetClass };
const exporters = { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Exporter };

export interface RealScenario {
  readonly cluster: KubeCluster;
  readonly sims: RemoteSimulators;
  manager: Manager;
  readonly custom: CustomObjectsApi;
  readonly core: CoreV1Api;
  /** Starts a manager (after `manager.stop()`), as a restarted controller. */
  restart(overrides?: Partial<Options>): Promise<Manager>;
  createClass(name?: string, spec?: Partial<VirtualTargetClass['spec']>): Promise<void>;
  createSet(name: string, spec: Partial<ExporterSetSpec>): Promise<void>;
  patchSetSpec(name: string, spec: Record<string, unknown>): Promise<void>;
  getSet(name: string): Promise<ExporterSet | undefined>;
  /** The Exporters labelled with the set, not being deleted. */
  instancesOf(set: string): Promise<Exporter[]>;
  /** Every Exporter of the namespace, deleting or not. */
  allExporters(): Promise<Exporter[]>;
  podNames(): Promise<string[]>;
  /** The controller's requests the server refused with 403. */
  forbidden(): AuditedRequest[];
  stop(): Promise<void>;
}

/** A real cluster with the install applied, the simulators and a controller watching every namespace. */
export async function startRealScenario(controller: Partial<Options> = {}): Promise<RealScenario> {
  const cluster = await startKubeCluster({ namespaces: [NS] });
  try {
    await kubectlApply(cluster, installYaml(), ['--force-conflicts']);
    const sims = await startRemoteSimulators({
      kubeConfig: cluster.kubeConfigFor('jumpstarter'),
      namespaces: [NS],
      jumpstarter: true,
      kubelet: true,
    });
    cluster.onStop(() => sims.stop());
    const custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const launch = (overrides: Partial<Options> = {}) =>
      startControllerAsServiceAccount(cluster, undefined, { ...controller, ...overrides });
    const listExporters = async () =>
      ((await custom.listNamespacedCustomObject({ ...exporters, namespace: NS })) as { items: Exporter[] })
        .items;
    const scenario: RealScenario = {
      cluster,
      sims,
      manager: await launch(),
      custom,
      core,
      async restart(overrides) {
        scenario.manager = await launch(overrides);
        return scenario.manager;
      },
      async createClass(name = 'qemu', spec = {}) {
        await custom.createNamespacedCustomObject({
          ...classes,
          namespace: NS,
          body: {
            apiVersion: API_VERSION,
            kind: 'VirtualTargetClass',
            metadata: { name },
            spec: { provisioner: 'qemu.jumpstarter.dev', parameters: { arch: 'x86_64' }, ...spec },
          },
        });
      },
      async createSet(name, spec) {
        await custom.createNamespacedCustomObject({
          ...sets,
          namespace: NS,
          body: {
            apiVersion: API_VERSION,
            kind: 'ExporterSet',
            metadata: { name },
            spec: {
              virtualTargetClassName: 'qemu',
              selector: { matchLabels: { ...TEMPLATE_LABELS } },
              template: { metadata: { labels: { ...TEMPLATE_LABELS } }, spec: { drivers: [] } },
              ...spec,
            },
          },
        });
      },
      async patchSetSpec(name, spec) {
        await cluster.kubectl([
          'patch',
          'exporterset',
          name,
          '-n',
          NS,
          '--type=merge',
          '-p',
          JSON.stringify({ spec }),
        ]);
      },
      async getSet(name) {
        try {
          return (await custom.getNamespacedCustomObject({ ...sets, namespace: NS, name })) as ExporterSet;
        } catch {
          return undefined;
        }
      },
      async instancesOf(set) {
        return (await listExporters()).filter(
          (e) => e.metadata?.labels?.[Labels.exporterSetName] === set && !e.metadata?.deletionTimestamp,
        );
      },
      allExporters: listExporters,
      async podNames() {
        return (await core.listNamespacedPod({ namespace: NS })).items.map((p) => p.metadata?.name ?? '');
      },
      forbidden: () => cluster.audit.requests({ user: CONTROLLER_USER, code: 403 }),
      async stop() {
        await scenario.manager.stop();
        await cluster.stop();
      },
    };
    return scenario;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** Polls `check` until it returns a value other than undefined/false (wall clock). */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const condition = (set: ExporterSet | undefined, type: string) =>
  set?.status?.conditions?.find((c) => c.type === type);
