/**
 * The kubelet simulator on any `ClusterPort`: the in-process store (`simulator.ts`) or a remote API
 * server (`../remote`). Every Pod goes Pending → Running (ready) after a boot delay; an exporter Pod
 * (one labelled `exporterset.jumpstarter.dev/name` or owned by an Exporter, named after its Exporter,
 * INTEROP §4 — a real kubelet runs the exporter whatever the Pod's labels) then starts its exporter
 * process, which reads the mounted exporter config and registers with the Jumpstarter simulator
 * through the shared `ExporterProcesses`. When the process's lease ends and its config says
 * `exitOnLeaseEnd`, it exits and the Pod goes Succeeded; otherwise it keeps running (InPlaceReuse).
 * Deleting a Pod stops its process gracefully. Faults make chosen Pods crash or never become ready.
 *
 * Like a kubelet it waits for the Secrets a Pod needs (secret volumes, `envFrom`, `secretKeyRef`) before starting
 * containers, and a process whose registration is refused (unknown Exporter, stale token, wrong
 * endpoint) or whose config is unreadable exits with an error: the Pod fails before it was ready.
 *
 * Status goes through the status subresource, on the condition that the Pod has not changed since it
 * was read. A step first decides the Pod's next state, then writes it; a write that loses a race
 * (409) or fails is written again by the retried step, without deciding anything twice.
 */
import type { ExporterProcesses } from '../jumpstarter/exporter-processes';
import { createWorkQueue, type SimulatorError, type WorkQueueOptions } from '../jumpstarter/work-queue';
import { drive, wait, type ClusterPort, type Step } from '../port';
import { ApiError, type Clock, type KubeObject } from '../types';
import { startExporterProcess } from './exporter-start';
import { addFaultRule, takeFault, type PodFaultRule } from './faults';
import { isExporterPod, newPodRun, type PodRun } from './pod-run';
import { missingSecret } from './pod-secrets';
import { imagesOf, podStatus, type PodRunState } from './pod-status';
import type { KubeletCore } from './simulator-api';

export type { KubeletCore } from './simulator-api';

/** How the kubelet simulator behaves, in either mode. */
export interface KubeletBehaviour {
  /** Cluster time from Pending to Running. @default 50 */
  readonly bootDelayMs?: number;
  /** Per-image boot delays; a Pod takes the longest of its images' (else `bootDelayMs`). */
  readonly imageBootDelayMs?: Readonly<Record<string, number>>;
  /** Cluster time from "lease ended" to the exporter's exit and the Pod's `Succeeded`. @default 0 */
  readonly exitDelayMs?: number;
  /** `exitOnLeaseEnd` of exporter Pods that mount no exporter config. @default false */
  readonly defaultExitOnLeaseEnd?: boolean;
  readonly onError?: (error: SimulatorError) => void;
}

export interface KubeletCoreOptions extends KubeletBehaviour {
  readonly port: ClusterPort;
  readonly clock: Clock;
  readonly processes: ExporterProcesses;
  /** Retries of the work queue (a remote port's transient errors). @default none */
  readonly retry?: WorkQueueOptions['retry'];
}

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.code === 404;

export function startKubeletCore(options: KubeletCoreOptions): KubeletCore {
  const { port, clock, processes } = options;
  const exitDelayMs = options.exitDelayMs ?? 0;
  let defaultBootDelayMs = options.bootDelayMs ?? 50;
  const imageBootDelayMs = new Map(Object.entries(options.imageBootDelayMs ?? {}));

  const errors: SimulatorError[] = [];
  const faults: PodFaultRule[] = [];
  const runs = new Map<string, PodRun>();
  let ipCounter = 0;
  let stopped = false;

  const queue = createWorkQueue<string>(
    (key) => drive(step(key)),
    (key, error) => {
      const failure = { key, error };
      errors.push(failure);
      options.onError?.(failure);
    },
    options.retry !== undefined ? { retry: options.retry } : {},
  );

  const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

  /** Runs `fn` (which only flags work) after `ms` of cluster time, or at once for 0. */
  function after(run: PodRun, ms: number, fn: () => void): void {
    if (ms <= 0) {
      fn();
      return;
    }
    run.timers.push(clock.setTimeout(fn, ms));
  }

  function bootDelayOf(pod: KubeObject): number {
    const delays = imagesOf(pod)
      .map((image) => imageBootDelayMs.get(image))
      .filter((d): d is number => d !== undefined);
    return delays.length > 0 ? Math.max(...delays) : defaultBootDelayMs;
  }

  /** Writes the decided state, unless the Pod is gone (its watch event ends the run). */
  function* writeStatus(run: PodRun, pod: KubeObject, state: PodRunState): Step<void> {
    const times = {
      now: clock.now(),
      startTime: run.startTime,
      ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
    };
    const status = podStatus(pod, state, times, run.podIP);
    try {
      yield* wait(port.replaceStatus('Pod', { ...pod, status }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (run.unwritten === state) run.unwritten = undefined;
  }

  function forget(run: PodRun): void {
    for (const cancel of run.timers) cancel();
    runs.delete(keyOf(run.namespace, run.name));
  }

  const exporterStart = {
    port,
    processes,
    defaultExitOnLeaseEnd: options.defaultExitOnLeaseEnd ?? false,
  };

  function boot(run: PodRun, pod: KubeObject): void {
    const missing = missingSecret(pod, (name) => port.get('Secret', run.namespace, name));
    if (missing !== undefined) {
      if (run.stage !== 'blocked' || run.waitingMessage !== missing.message) {
        run.unwritten = { phase: 'Pending', waiting: missing };
      }
      run.stage = 'blocked';
      run.waitingMessage = missing.message;
      return;
    }
    run.startedAt = clock.now();
    const fault = takeFault(faults, pod);
    if (fault?.kind === 'crash' && fault.afterReadyMs === undefined) {
      run.stage = 'terminal';
      run.unwritten = { phase: 'Failed', exitCode: 1, message: fault.message ?? 'injected crash at start' };
      return;
    }
    if (fault?.kind === 'never-ready') {
      run.stage = 'running';
      run.unwritten = { phase: 'Running', ready: false };
      return;
    }
    if (isExporterPod(pod)) {
      const failure = startExporterProcess(exporterStart, run, pod);
      if (failure !== undefined) {
        run.stage = 'terminal';
        run.unwritten = { phase: 'Failed', exitCode: 1, message: failure };
        return;
      }
    }
    run.stage = 'running';
    run.unwritten = { phase: 'Running', ready: true };
    if (fault?.kind === 'crash') {
      after(run, fault.afterReadyMs ?? 0, () => {
        run.crashDue = fault.message ?? 'injected crash';
        queue.add(keyOf(run.namespace, run.name));
      });
    }
  }

  /** Decides the next transition the run is due for (its status goes in `unwritten`). */
  function advance(run: PodRun, pod: KubeObject, key: string): void {
    if (run.stage === 'terminal') return;
    if (run.crashDue !== undefined) {
      run.stage = 'terminal';
      processes.exit(run.namespace, run.name, 'lost', run.uid);
      run.unwritten = { phase: 'Failed', exitCode: 1, message: run.crashDue };
      return;
    }
    switch (run.stage) {
      case 'new':
        run.stage = 'booting';
        run.unwritten = { phase: 'Pending' };
        after(run, bootDelayOf(pod), () => {
          run.bootDue = true;
          queue.add(key);
        });
        return;
      case 'booting':
      case 'blocked':
        if (run.bootDue) boot(run, pod);
        return;
      case 'running':
        if (run.reconnectDue) {
          // A Pod that was running before this simulator started: its process reconnects.
          run.reconnectDue = false;
          const failure = startExporterProcess(exporterStart, run, pod);
          if (failure !== undefined) {
            run.stage = 'terminal';
            run.unwritten = { phase: 'Failed', exitCode: 1, message: failure };
          }
        } else if (run.exitDue) {
          run.stage = 'terminal';
          processes.exit(run.namespace, run.name, 'graceful', run.uid);
          run.unwritten = { phase: 'Succeeded' };
        }
        return;
    }
  }

  /** Works one Pod: the next transition its run is due for, then its status. */
  function* step(key: string): Step<void> {
    const run = runs.get(key);
    if (run === undefined || stopped) return;
    const pod = port.get('Pod', run.namespace, run.name);
    if (pod === undefined || pod.metadata.uid !== run.uid) {
      processes.exit(run.namespace, run.name, 'graceful', run.uid);
      forget(run);
      return;
    }
    if (pod.metadata.deletionTimestamp !== undefined) {
      // Terminating: SIGTERM; the exporter unregisters and the Pod object goes when its finalizers do.
      processes.exit(run.namespace, run.name, 'graceful', run.uid);
      run.stage = 'terminal';
      run.unwritten = undefined;
      for (const cancel of run.timers) cancel();
      return;
    }
    advance(run, pod, key);
    if (run.unwritten !== undefined) yield* writeStatus(run, pod, run.unwritten);
  }

  function observe(pod: KubeObject): void {
    const { namespace, name, uid } = pod.metadata;
    if (namespace === undefined || name === undefined || uid === undefined) return;
    const key = keyOf(namespace, name);
    const existing = runs.get(key);
    if (existing !== undefined && existing.uid === uid) {
      if (pod.metadata.deletionTimestamp !== undefined) queue.add(key);
      return;
    }
    if (existing !== undefined) {
      processes.exit(namespace, name, 'graceful', existing.uid);
      forget(existing);
    }
    ipCounter += 1;
    const running = processes.get(namespace, name)?.phase === 'running';
    runs.set(key, newPodRun(pod, { namespace, name, uid }, ipCounter, clock.now(), running));
    queue.add(key);
  }

  const unwatch = [
    port.watch('Pod', (event) => {
      const { namespace, name } = event.object.metadata;
      if (namespace === undefined || name === undefined) return;
      if (event.type === 'DELETED') {
        const run = runs.get(keyOf(namespace, name));
        if (run !== undefined && run.uid === event.object.metadata.uid) queue.add(keyOf(namespace, name));
        return;
      }
      observe(event.object);
    }),
    port.watch('Secret', (event) => {
      if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
      for (const [key, run] of runs) {
        if (run.stage === 'blocked' && run.namespace === event.object.metadata.namespace) queue.add(key);
      }
    }),
  ];
  const unsubscribe = processes.subscribe({
    leaseEnded(namespace, exporter, _lease, exiting) {
      const run = runs.get(keyOf(namespace, exporter));
      if (!exiting || run === undefined || run.stage !== 'running') return;
      after(run, exitDelayMs, () => {
        run.exitDue = true;
        queue.add(keyOf(namespace, exporter));
      });
    },
  });

  return {
    processes,
    errors,
    injectFault: (match, fault, injectOptions) => addFaultRule(faults, match, fault, injectOptions?.times),
    crash(namespace, name, message) {
      const run = runs.get(keyOf(namespace, name));
      if (run === undefined) throw new Error(`the kubelet runs no Pod ${namespace}/${name}`);
      run.crashDue = message ?? 'crashed on request';
      queue.add(keyOf(namespace, name));
    },
    setBootDelay(ms, image) {
      if (image === undefined) defaultBootDelayMs = ms;
      else imageBootDelayMs.set(image, ms);
    },
    idle: () => queue.idle(),
    stop() {
      if (stopped) return;
      stopped = true;
      queue.stop();
      for (const stop of unwatch) stop();
      unsubscribe();
      for (const run of runs.values()) for (const cancel of run.timers) cancel();
      runs.clear();
    },
  };
}
