/**
 * The test cluster as a child process of the benchmark (so the controller under test never shares
 * its event loop): started with its options as one JSON argument, it prints one JSON line on stdout
 * — `{ url, kubeconfigs: { <identity>: <yaml> } }` — and then answers `ClusterApi` calls sent over
 * IPC as `{ id, op, args }` with `{ id, result }` or `{ id, error }`. It stops when told (`stop`) or
 * when its parent goes away.
 */
import { startTestCluster } from 'virtual-exporters-test-cluster';
import type { Backend } from './benchmark';
import { createClusterService, type ClusterApi, type ClusterCalls } from './cluster-service';

export interface ClusterProcessOptions {
  /** The test cluster (default) or a real kube-apiserver (kube-cluster-service.ts). */
  readonly backend?: Backend;
  readonly namespaces: readonly string[];
  /** @default 1 (a controller in another process runs on the real clock) */
  readonly speedUp?: number;
  /** @default the cluster's (30 s) */
  readonly watchTimeoutSeconds?: number;
  /** Identities to print kubeconfigs for. */
  readonly identities: readonly string[];
}

export interface ClusterProcessReady {
  readonly url: string;
  readonly kubeconfigs: Readonly<Record<string, string>>;
}

export interface CallMessage {
  readonly id: number;
  readonly op: keyof ClusterApi | 'stop';
  readonly args: readonly unknown[];
}

export type ReplyMessage =
  { readonly id: number; readonly result: unknown } | { readonly id: number; readonly error: string };

interface Started {
  readonly url: string;
  kubeconfigYaml(identity: string): string;
  readonly service: ClusterCalls & { stop(): void };
  stop(): Promise<void>;
}

async function startTest(options: ClusterProcessOptions): Promise<Started> {
  const cluster = await startTestCluster({
    namespaces: [...options.namespaces],
    speedUp: options.speedUp ?? 1,
    jumpstarter: true,
    kubelet: true,
    ...(options.watchTimeoutSeconds !== undefined
      ? { watchTimeoutSeconds: options.watchTimeoutSeconds }
      : {}),
  });
  const service = createClusterService(cluster);
  return {
    url: cluster.url,
    kubeconfigYaml: (identity) => cluster.kubeconfigYaml(identity),
    service,
    async stop() {
      service.stop();
      await cluster.stop();
    },
  };
}

async function startKube(options: ClusterProcessOptions): Promise<Started> {
  const testOnly = [
    ...((options.speedUp ?? 1) !== 1 ? ['a sped-up clock (speedUp)'] : []),
    ...(options.watchTimeoutSeconds !== undefined ? ['a watch timeout (watchTimeoutSeconds)'] : []),
  ];
  if (testOnly.length > 0) {
    throw new Error(`${testOnly.join(' and ')}: test-cluster features the real API server does not have`);
  }
  const { startKubeBackend } = await import('./kube-cluster-service');
  return startKubeBackend(options.namespaces, (message) => process.stderr.write(`${message}\n`));
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ClusterProcessOptions;
  const cluster = await (options.backend === 'kube' ? startKube(options) : startTest(options));
  const { service } = cluster;
  const stop = async (code: number) => {
    await cluster.stop();
    process.exit(code);
  };
  process.on('disconnect', () => void stop(0));
  process.on('message', (message: CallMessage) => {
    const reply = (body: ReplyMessage) => process.send?.(body);
    if (message.op === 'stop') {
      reply({ id: message.id, result: null });
      void stop(0);
      return;
    }
    const call = service[message.op] as (...args: unknown[]) => unknown;
    Promise.resolve()
      .then(() => call(...message.args))
      .then(
        (result) => reply({ id: message.id, result: result ?? null }),
        (error: unknown) =>
          reply({
            id: message.id,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          }),
      );
  });
  const ready: ClusterProcessReady = {
    url: cluster.url,
    kubeconfigs: Object.fromEntries(options.identities.map((id) => [id, cluster.kubeconfigYaml(id)])),
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`cluster process: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
