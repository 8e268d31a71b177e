/**
 * The benchmark's handle on the cluster child process (cluster-process.ts): starts it under ts-node,
 * reads its URL and kubeconfigs, calls `ClusterApi` over IPC, and converts its timestamps to this
 * process's timeline (`toLocal`) with the measured clock offset.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { ClusterApi } from './cluster-service';
import type {
  CallMessage,
  ClusterProcessOptions,
  ClusterProcessReady,
  ReplyMessage,
} from './cluster-process';
import { estimateOffset } from './clock';

type Result<K extends keyof ClusterApi> = Awaited<ReturnType<ClusterApi[K]>>;

export interface ClusterChild extends ClusterProcessReady {
  readonly pid: number;
  call<K extends keyof ClusterApi>(op: K, ...args: Parameters<ClusterApi[K]>): Promise<Result<K>>;
  /** The child's clock minus ours (ms), and its uncertainty. */
  readonly clockOffset: { readonly offsetMs: number; readonly errorMs: number };
  /** A child timestamp on this process's timeline. */
  toLocal(childTime: number): number;
  stop(): Promise<void>;
}

export async function startClusterChild(
  options: ClusterProcessOptions,
  /** Extra Node flags of the child, e.g. `--cpu-prof`. */
  nodeFlags: readonly string[] = [],
): Promise<ClusterChild> {
  const child: ChildProcess = fork(path.join(__dirname, 'cluster-process.ts'), [JSON.stringify(options)], {
    execArgv: [
      '--require',
      'ts-node/register',
      ...nodeFlags,
      // e.g. BENCH_CLUSTER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/cluster' to profile the test cluster
      ...(process.env.BENCH_CLUSTER_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    serialization: 'advanced',
    cwd: path.resolve(__dirname, '../..'),
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      for (const { reject } of pending.values())
        reject(new Error(`the cluster process exited (code ${code})`));
      pending.clear();
      resolve();
    }),
  );
  child.on('message', (message: ReplyMessage) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if ('error' in message) waiting.reject(new Error(`cluster process: ${message.error}`));
    else waiting.resolve(message.result);
  });
  const send = (op: CallMessage['op'], args: readonly unknown[]): Promise<unknown> => {
    if (exited) return Promise.reject(new Error('the cluster process has exited'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.send({ id, op, args } satisfies CallMessage);
    });
  };

  const ready = await new Promise<ClusterProcessReady>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as ClusterProcessReady);
      } catch (error) {
        reject(new Error(`the cluster process printed no JSON: ${line} (${String(error)})`));
      }
    });
    void exitedPromise.then(() => reject(new Error('the cluster process exited before it was ready')));
  });
  const call = <K extends keyof ClusterApi>(op: K, ...args: Parameters<ClusterApi[K]>) =>
    send(op, args) as Promise<Result<K>>;
  const clockOffset = await estimateOffset(() => call('now'));
  return {
    ...ready,
    pid: child.pid ?? -1,
    call,
    clockOffset,
    toLocal: (childTime) => childTime - clockOffset.offsetMs,
    async stop() {
      if (exited) return;
      await send('stop', []).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}
