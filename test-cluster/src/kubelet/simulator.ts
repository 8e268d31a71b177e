/**
 * The kubelet of the test cluster, simulated in process against the store: every Pod goes Pending →
 * Running (ready) after a boot delay of cluster time; an exporter Pod (one labelled
 * `exporterset.jumpstarter.dev/name` or owned by an Exporter, named after its Exporter, INTEROP §4 — a
 * real kubelet runs the exporter whatever the Pod's labels) then starts its exporter
 * process, which reads the mounted exporter config and registers with the Jumpstarter simulator
 * through the shared `ExporterProcesses`. When the process's lease ends and its config says
 * `exitOnLeaseEnd`, it exits and the Pod goes Succeeded; otherwise it keeps running (InPlaceReuse).
 * Deleting a Pod stops its process gracefully. Faults make chosen Pods crash or never become ready.
 *
 * Like a kubelet it waits for the Secrets a Pod needs (secret volumes, `envFrom`, `secretKeyRef`) before starting
 * containers, and a process whose registration is refused (unknown Exporter, stale token, wrong
 * endpoint) or whose config is unreadable exits with an error: the Pod fails before it was ready.
 * Status goes through the status subresource.
 */
import { Labels } from 'virtual-exporters/internal';
import type { ExporterProcesses } from '../jumpstarter/exporter-processes';
import { exporterProcessesOf } from '../jumpstarter/exporter-processes';
import { createWorkQueue, settle, type SimulatorError } from '../jumpstarter/work-queue';
import { ApiError, type Clock, type KubeObject, type ObjectStore, type ResourceType } from '../types';
import { configSecretName, readExporterConfig, type ExporterRunConfig } from './exporter-config';
import { takeFault, type PodFaultRule, type PodFault, type PodMatch } from './faults';
import { imagesOf, podStatus, type PodRunState } from './pod-status';

export interface KubeletSimulatorOptions {
  readonly store: ObjectStore;
  /** @default store.clock */
  readonly clock?: Clock;
  /** Shared with the Jumpstarter simulator. @default exporterProcessesOf(store) */
  readonly processes?: ExporterProcesses;
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

export interface KubeletSimulator {
  readonly processes: ExporterProcesses;
  readonly errors: readonly SimulatorError[];
  /** Adds a fault rule (consulted at boot, oldest first); returns a function that removes it. */
  injectFault(match: PodMatch, fault: PodFault, options?: { readonly times?: number }): () => void;
  /** Crashes a Pod now: its containers exit with code 1, the Pod fails, its process is lost. */
  crash(namespace: string, name: string, message?: string): void;
  /** Changes the boot delay of Pods booting from now on (of one image, or the default). */
  setBootDelay(ms: number, image?: string): void;
  idle(): boolean;
  settle(): Promise<void>;
  stop(): void;
}

type Stage = 'new' | 'booting' | 'blocked' | 'running' | 'terminal';

/** What the kubelet knows of one Pod it runs. */
interface PodRun {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly podIP: string;
  readonly startTime: number;
  stage: Stage;
  startedAt?: number;
  bootDue: boolean;
  crashDue?: string;
  exitDue: boolean;
  reconnectDue?: boolean;
  timers: (() => void)[];
  /** What a blocked Pod waits for, as last written to its status. */
  waitingMessage?: string;
}

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.code === 404;

interface ContainerRefs {
  envFrom?: { secretRef?: { name?: string; optional?: boolean } }[];
  env?: { valueFrom?: { secretKeyRef?: { name?: string; key?: string; optional?: boolean } } }[];
}

/**
 * The first Secret (or Secret key, for `env[].valueFrom.secretKeyRef`) the Pod needs that does not
 * exist, with the waiting reason a kubelet shows.
 */
function missingSecret(
  pod: KubeObject,
  secretOf: (name: string) => KubeObject | undefined,
): { reason: string; message: string } | undefined {
  const exists = (name: string) => secretOf(name) !== undefined;
  const spec = (pod.spec ?? {}) as {
    volumes?: { name: string; secret?: { secretName?: string; optional?: boolean } }[];
    containers?: ContainerRefs[];
    initContainers?: ContainerRefs[];
  };
  for (const volume of spec.volumes ?? []) {
    const name = volume.secret?.secretName;
    if (name !== undefined && volume.secret?.optional !== true && !exists(name)) {
      return {
        reason: 'ContainerCreating',
        message: `MountVolume.SetUp failed for volume "${volume.name}" : secret "${name}" not found`,
      };
    }
  }
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    for (const source of container.envFrom ?? []) {
      const name = source.secretRef?.name;
      if (name !== undefined && source.secretRef?.optional !== true && !exists(name)) {
        return { reason: 'CreateContainerConfigError', message: `secret "${name}" not found` };
      }
    }
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref?.name === undefined || ref.optional === true) continue;
      const secret = secretOf(ref.name);
      if (secret === undefined) {
        return { reason: 'CreateContainerConfigError', message: `secret "${ref.name}" not found` };
      }
      const data = { ...(secret.data as object | undefined), ...(secret.stringData as object | undefined) };
      if (ref.key === undefined || !Object.hasOwn(data, ref.key)) {
        return {
          reason: 'CreateContainerConfigError',
          message: `couldn't find key ${ref.key} in Secret ${secret.metadata.namespace}/${ref.name}`,
        };
      }
    }
  }
  return undefined;
}

export function startKubeletSimulator(options: KubeletSimulatorOptions): KubeletSimulator {
  const { store } = options;
  const clock = options.clock ?? store.clock;
  const processes = options.processes ?? exporterProcessesOf(store);
  const exitDelayMs = options.exitDelayMs ?? 0;
  let defaultBootDelayMs = options.bootDelayMs ?? 50;
  const imageBootDelayMs = new Map(Object.entries(options.imageBootDelayMs ?? {}));
  const podRt = resourceType(store, 'Pod');
  const secretRt = resourceType(store, 'Secret');

  const errors: SimulatorError[] = [];
  const faults: PodFaultRule[] = [];
  const runs = new Map<string, PodRun>();
  let ipCounter = 0;
  let stopped = false;

  const queue = createWorkQueue<string>(step, (key, error) => {
    const failure = { key, error };
    errors.push(failure);
    options.onError?.(failure);
  });

  const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

  /** Runs `fn` (which only flags work) after `ms` of cluster time, or on the next turn for 0. */
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

  const isExporterPod = (pod: KubeObject): boolean =>
    pod.metadata.labels?.[Labels.exporterSetName] !== undefined ||
    (Array.isArray(pod.metadata.ownerReferences) &&
      pod.metadata.ownerReferences.some((ref) => ref?.kind === 'Exporter'));

  function tryGet(rt: ResourceType, namespace: string, name: string): KubeObject | undefined {
    try {
      return store.get(rt, namespace, name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  function writeStatus(run: PodRun, pod: KubeObject, state: PodRunState): void {
    const now = clock.now();
    const status = podStatus(
      pod,
      state,
      { now, startTime: run.startTime, ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}) },
      run.podIP,
    );
    store.update(podRt, run.namespace, run.name, { ...pod, status }, 'status');
  }

  function forget(run: PodRun): void {
    for (const cancel of run.timers) cancel();
    runs.delete(keyOf(run.namespace, run.name));
  }

  /** Starts the exporter process; returns why it failed, or undefined once registered. */
  function startProcess(run: PodRun, pod: KubeObject): string | undefined {
    let config: ExporterRunConfig = {
      exitOnLeaseEnd: options.defaultExitOnLeaseEnd ?? false,
      devices: [],
    };
    const secretName = configSecretName(pod);
    if (secretName !== undefined) {
      const secret = tryGet(secretRt, run.namespace, secretName);
      if (secret === undefined) return `exporter config: Secret ${secretName} not found`;
      try {
        config = readExporterConfig(secret);
      } catch (error) {
        return (error as Error).message;
      }
    }
    const result = processes.register({
      namespace: run.namespace,
      exporter: run.name,
      podUid: run.uid,
      exitOnLeaseEnd: config.exitOnLeaseEnd,
      devices: config.devices,
      ...(config.token !== undefined ? { token: config.token } : {}),
      ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
    });
    return result.accepted ? undefined : `registration refused: ${result.reason}`;
  }

  function boot(run: PodRun, pod: KubeObject): void {
    const missing = missingSecret(pod, (name) => tryGet(secretRt, run.namespace, name));
    if (missing !== undefined) {
      if (run.stage !== 'blocked' || run.waitingMessage !== missing.message) {
        writeStatus(run, pod, { phase: 'Pending', waiting: missing });
      }
      run.stage = 'blocked';
      run.waitingMessage = missing.message;
      return;
    }
    run.startedAt = clock.now();
    const fault = takeFault(faults, pod);
    if (fault?.kind === 'crash' && fault.afterReadyMs === undefined) {
      run.stage = 'terminal';
      writeStatus(run, pod, {
        phase: 'Failed',
        exitCode: 1,
        message: fault.message ?? 'injected crash at start',
      });
      return;
    }
    if (fault?.kind === 'never-ready') {
      run.stage = 'running';
      writeStatus(run, pod, { phase: 'Running', ready: false });
      return;
    }
    if (isExporterPod(pod)) {
      const failure = startProcess(run, pod);
      if (failure !== undefined) {
        run.stage = 'terminal';
        writeStatus(run, pod, { phase: 'Failed', exitCode: 1, message: failure });
        return;
      }
    }
    run.stage = 'running';
    writeStatus(run, pod, { phase: 'Running', ready: true });
    if (fault?.kind === 'crash') {
      after(run, fault.afterReadyMs ?? 0, () => {
        run.crashDue = fault.message ?? 'injected crash';
        queue.add(keyOf(run.namespace, run.name));
      });
    }
  }

  /** Works one Pod: the next transition its run is due for. */
  function step(key: string): void {
    const run = runs.get(key);
    if (run === undefined || stopped) return;
    const pod = tryGet(podRt, run.namespace, run.name);
    if (pod === undefined || pod.metadata.uid !== run.uid) {
      processes.exit(run.namespace, run.name, 'graceful', run.uid);
      forget(run);
      return;
    }
    if (pod.metadata.deletionTimestamp !== undefined) {
      // Terminating: SIGTERM; the exporter unregisters and the Pod object goes when its finalizers do.
      processes.exit(run.namespace, run.name, 'graceful', run.uid);
      run.stage = 'terminal';
      for (const cancel of run.timers) cancel();
      return;
    }
    if (run.stage === 'terminal') return;
    if (run.crashDue !== undefined) {
      run.stage = 'terminal';
      processes.exit(run.namespace, run.name, 'lost', run.uid);
      writeStatus(run, pod, { phase: 'Failed', exitCode: 1, message: run.crashDue });
      return;
    }
    switch (run.stage) {
      case 'new':
        run.stage = 'booting';
        writeStatus(run, pod, { phase: 'Pending' });
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
          const failure = startProcess(run, pod);
          if (failure !== undefined) {
            run.stage = 'terminal';
            writeStatus(run, pod, { phase: 'Failed', exitCode: 1, message: failure });
          }
        } else if (run.exitDue) {
          run.stage = 'terminal';
          processes.exit(run.namespace, run.name, 'graceful', run.uid);
          writeStatus(run, pod, { phase: 'Succeeded' });
        }
        return;
    }
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
    const status = (pod.status ?? {}) as { phase?: string; podIP?: string; startTime?: string };
    const phase = status.phase ?? 'Pending';
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    const adopted = phase === 'Running';
    ipCounter += 1;
    const run: PodRun = {
      uid,
      namespace,
      name,
      podIP: status.podIP ?? `10.244.${(ipCounter >> 8) & 255}.${ipCounter & 255}`,
      startTime: Date.parse(status.startTime ?? '') || clock.now(),
      stage: terminal ? 'terminal' : adopted ? 'running' : 'new',
      bootDue: false,
      exitDue: false,
      timers: [],
    };
    runs.set(key, run);
    const ready = (
      (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []
    ).some((c) => c.type === 'Ready' && c.status === 'True');
    if (adopted && ready && isExporterPod(pod) && processes.get(namespace, name)?.phase !== 'running') {
      run.reconnectDue = true;
    }
    queue.add(key);
  }

  const watches = [
    store.watch(podRt, undefined, {}, (event) => {
      if (event.type === 'BOOKMARK') return;
      const { namespace, name } = event.object.metadata;
      if (namespace === undefined || name === undefined) return;
      if (event.type === 'DELETED') {
        const run = runs.get(keyOf(namespace, name));
        if (run !== undefined && run.uid === event.object.metadata.uid) queue.add(keyOf(namespace, name));
        return;
      }
      observe(event.object);
    }),
    store.watch(secretRt, undefined, {}, (event) => {
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

  const simulator: KubeletSimulator = {
    processes,
    errors,
    injectFault(match, fault, injectOptions) {
      const rule: PodFaultRule = {
        match,
        fault,
        ...(injectOptions?.times !== undefined ? { remaining: injectOptions.times } : {}),
      };
      faults.push(rule);
      return () => {
        const index = faults.indexOf(rule);
        if (index >= 0) faults.splice(index, 1);
      };
    },
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
    settle: () => settle([simulator]),
    stop() {
      if (stopped) return;
      stopped = true;
      queue.stop();
      for (const watch of watches) watch.stop();
      unsubscribe();
      for (const run of runs.values()) for (const cancel of run.timers) cancel();
      runs.clear();
    },
  };
  return simulator;

  function resourceType(s: ObjectStore, kind: string): ResourceType {
    const rt = s.registry.byKind('v1', kind);
    if (rt === undefined) throw new Error(`the test cluster does not serve ${kind} (v1)`);
    return rt;
  }
}
