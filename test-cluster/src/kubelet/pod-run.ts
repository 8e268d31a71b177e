/**
 * What the kubelet simulator knows of one Pod it runs — its stage, what is due, its timers, the state
 * it decided and has not written yet — and how a run begins when the kubelet first sees a Pod
 * (a Pod already Running when the simulator starts is adopted, its exporter process reconnects).
 */
import { Labels } from 'virtual-exporters/internal';
import type { KubeObject } from '../types';
import type { PodRunState } from './pod-status';

export type Stage = 'new' | 'booting' | 'blocked' | 'running' | 'terminal';

export interface PodRun {
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
  /** The state decided and not written yet. */
  unwritten?: PodRunState;
}

/** A Pod that runs an exporter: labelled with its ExporterSet, or owned by an Exporter (INTEROP §4). */
export const isExporterPod = (pod: KubeObject): boolean =>
  pod.metadata.labels?.[Labels.exporterSetName] !== undefined ||
  (Array.isArray(pod.metadata.ownerReferences) &&
    pod.metadata.ownerReferences.some((ref) => ref?.kind === 'Exporter'));

/**
 * The run of a Pod the kubelet sees for the first time; `ipIndex` numbers the Pod IPs handed out. `reconnectDue` is set for a running, ready exporter Pod
 * whose process is not `running`.
 */
export function newPodRun(
  pod: KubeObject,
  id: { readonly namespace: string; readonly name: string; readonly uid: string },
  ipIndex: number,
  now: number,
  processRunning: boolean,
): PodRun {
  const { namespace, name, uid } = id;
  const status = (pod.status ?? {}) as {
    phase?: string;
    podIP?: string;
    startTime?: string;
    conditions?: { type: string; status: string }[];
  };
  const phase = status.phase ?? 'Pending';
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const adopted = phase === 'Running';
  const run: PodRun = {
    uid,
    namespace,
    name,
    podIP: status.podIP ?? `10.244.${(ipIndex >> 8) & 255}.${ipIndex & 255}`,
    startTime: Date.parse(status.startTime ?? '') || now,
    stage: terminal ? 'terminal' : adopted ? 'running' : 'new',
    bootDue: false,
    exitDue: false,
    timers: [],
  };
  const ready = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  if (adopted && ready && isExporterPod(pod) && !processRunning) run.reconnectDue = true;
  return run;
}
