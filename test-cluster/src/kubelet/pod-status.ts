/**
 * Pod status as a kubelet reports it, as a pure function of the Pod's spec and the phase the
 * simulated kubelet has reached: phase, the four standard conditions, and a status for every
 * container, init container and native sidecar (an init container with `restartPolicy: Always`),
 * shaped like a real kubelet's so the controller reads them the way it would in a cluster.
 *
 * Simplification: every Pod is treated as `restartPolicy: Never` (what exporter Pods use), so a
 * crash fails the Pod instead of restarting the container.
 */
import type { KubeObject } from '../types';

export type PodRunState =
  /** Scheduled, containers not started; `waiting` says why (e.g. a missing Secret). */
  | { readonly phase: 'Pending'; readonly waiting?: { readonly reason: string; readonly message?: string } }
  | { readonly phase: 'Running'; readonly ready: boolean }
  | { readonly phase: 'Succeeded' }
  /** The regular containers exited with `exitCode`. */
  | { readonly phase: 'Failed'; readonly exitCode: number; readonly message: string };

export interface PodTimes {
  readonly now: number;
  /** When the Pod was first seen by the kubelet (`status.startTime`). */
  readonly startTime: number;
  /** When its containers started (Running and later). */
  readonly startedAt?: number;
}

interface ContainerSpec {
  name: string;
  image?: string;
  restartPolicy?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function containersOf(pod: KubeObject): { init: ContainerSpec[]; main: ContainerSpec[] } {
  const spec = (pod.spec ?? {}) as { containers?: ContainerSpec[]; initContainers?: ContainerSpec[] };
  return { init: spec.initContainers ?? [], main: spec.containers ?? [] };
}

/** Every image the Pod runs (init containers included). */
export function imagesOf(pod: KubeObject): string[] {
  const { init, main } = containersOf(pod);
  return [...init, ...main].map((c) => c.image).filter((image): image is string => image !== undefined);
}

function containerStatus(
  container: ContainerSpec,
  state: Record<string, unknown>,
  ready: boolean,
  started: boolean,
): Record<string, unknown> {
  const image = container.image ?? '';
  return {
    name: container.name,
    image,
    imageID: image === '' ? '' : `${image.split(':')[0]}@sha256:${'0'.repeat(64)}`,
    ready,
    started,
    restartCount: 0,
    state,
  };
}

function condition(type: string, ok: boolean, reason?: string, message?: string): Record<string, unknown> {
  return {
    type,
    status: ok ? 'True' : 'False',
    lastProbeTime: null,
    ...(reason !== undefined ? { reason } : {}),
    ...(message !== undefined ? { message } : {}),
  };
}

/** Keeps each condition's lastTransitionTime while its status is unchanged. */
function withTransitionTimes(
  conditions: Record<string, unknown>[],
  old: unknown,
  now: number,
): Record<string, unknown>[] {
  const previous = Array.isArray(old) ? (old as Record<string, unknown>[]) : [];
  return conditions.map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const time = before !== undefined && before.status === c.status ? before.lastTransitionTime : iso(now);
    return { ...c, lastTransitionTime: time };
  });
}

/** The full `status` of `pod` in `state`; `podIP` is kept once assigned. */
export function podStatus(
  pod: KubeObject,
  state: PodRunState,
  times: PodTimes,
  podIP: string,
): Record<string, unknown> {
  const { init, main } = containersOf(pod);
  const sidecar = (c: ContainerSpec): boolean => c.restartPolicy === 'Always';
  const startedAt = iso(times.startedAt ?? times.now);
  const running = { running: { startedAt } };
  const terminated = (exitCode: number, reason: string, message?: string): Record<string, unknown> => ({
    terminated: {
      exitCode,
      reason,
      ...(message !== undefined ? { message } : {}),
      startedAt,
      finishedAt: iso(times.now),
    },
  });
  const unready = main.map((c) => c.name).join(', ');
  let conditions: Record<string, unknown>[];
  let initStatuses: Record<string, unknown>[];
  let mainStatuses: Record<string, unknown>[];

  switch (state.phase) {
    case 'Pending': {
      const waiting = {
        waiting: {
          reason: state.waiting?.reason ?? 'PodInitializing',
          ...(state.waiting?.message ? { message: state.waiting.message } : {}),
        },
      };
      const initializing = init.length > 0;
      conditions = [
        condition('Initialized', !initializing, initializing ? 'ContainersNotInitialized' : undefined),
        condition('Ready', false, 'ContainersNotReady', `containers with unready status: [${unready}]`),
        condition(
          'ContainersReady',
          false,
          'ContainersNotReady',
          `containers with unready status: [${unready}]`,
        ),
        condition('PodScheduled', true),
      ];
      initStatuses = init.map((c) => containerStatus(c, waiting, false, false));
      mainStatuses = main.map((c) => containerStatus(c, waiting, false, false));
      break;
    }
    case 'Running': {
      const why = state.ready ? undefined : 'ContainersNotReady';
      const message = state.ready ? undefined : `containers with unready status: [${unready}]`;
      conditions = [
        condition('Initialized', true),
        condition('Ready', state.ready, why, message),
        condition('ContainersReady', state.ready, why, message),
        condition('PodScheduled', true),
      ];
      initStatuses = init.map((c) =>
        sidecar(c)
          ? containerStatus(c, running, true, true)
          : containerStatus(c, terminated(0, 'Completed'), false, false),
      );
      mainStatuses = main.map((c) => containerStatus(c, running, state.ready, true));
      break;
    }
    case 'Succeeded':
    case 'Failed': {
      const reason = state.phase === 'Succeeded' ? 'PodCompleted' : 'PodFailed';
      conditions = [
        condition('Initialized', true),
        condition('Ready', false, reason),
        condition('ContainersReady', false, reason),
        condition('PodScheduled', true),
      ];
      initStatuses = init.map((c) => containerStatus(c, terminated(0, 'Completed'), false, false));
      mainStatuses = main.map((c) =>
        containerStatus(
          c,
          state.phase === 'Failed'
            ? terminated(state.exitCode, 'Error', state.message)
            : terminated(0, 'Completed'),
          false,
          false,
        ),
      );
      break;
    }
  }
  const old = (pod.status ?? {}) as Record<string, unknown>;
  return {
    phase: state.phase,
    conditions: withTransitionTimes(conditions, old.conditions, times.now),
    hostIP: '10.0.0.1',
    hostIPs: [{ ip: '10.0.0.1' }],
    ...(state.phase !== 'Pending' ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: iso(times.startTime),
    ...(initStatuses.length > 0 ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: mainStatuses,
  };
}
