/**
 * Test-only: applies a plan to its snapshot the way a perfect executor and cache would, with no time
 * passing and no other actor (no Jumpstarter, no kubelet): creates appear as new Exporters without
 * status, renders as Pending Pods, disables set `spec.enabled: false`, deletes remove, the status is
 * written. Used to check that planning converges and then stays quiet.
 */
import { DRAIN_FINALIZER, Labels, type Exporter } from 'virtual-exporters/internal';
import {
  plan,
  statusEquals,
  type InstanceSnapshot,
  type Plan,
  type PlannerSnapshot,
} from '../../src/planner';

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

function patchExporter(instance: InstanceSnapshot, patch: unknown): InstanceSnapshot {
  return { ...instance, exporter: mergePatch(instance.exporter, patch) as Exporter };
}

/** The snapshot after `result` was applied; `gone` when a RemoveFinalizer let the set go. */
export function applyPlan(snapshot: PlannerSnapshot, result: Plan): PlannerSnapshot & { gone?: boolean } {
  const now = new Date(snapshot.now).toISOString();
  let instances = [...snapshot.instances];
  let set = result.status ? { ...snapshot.set, status: result.status } : snapshot.set;
  let gone = false;
  let revisions = snapshot.revisions;
  const update = (name: string, change: (i: InstanceSnapshot) => InstanceSnapshot): void => {
    instances = instances.map((i) => (i.exporter.metadata?.name === name ? change(i) : i));
  };
  for (const action of result.actions) {
    switch (action.type) {
      case 'AddFinalizer':
        set = {
          ...set,
          metadata: { ...set.metadata, finalizers: [...(set.metadata.finalizers ?? []), DRAIN_FINALIZER] },
        };
        break;
      case 'RemoveFinalizer':
        set = {
          ...set,
          metadata: {
            ...set.metadata,
            finalizers: (set.metadata.finalizers ?? []).filter((f) => f !== DRAIN_FINALIZER),
          },
        };
        gone = set.metadata.deletionTimestamp !== undefined;
        break;
      case 'CreateExporter':
        if (instances.some((i) => i.exporter.metadata?.name === action.name))
          throw new Error(`twin ${action.name}`);
        instances.push({
          exporter: {
            ...action.exporter,
            metadata: { ...action.exporter.metadata, uid: `uid-${action.name}`, creationTimestamp: now },
          },
        });
        break;
      case 'PromoteStandby':
        update(action.name, (i) => patchExporter(i, action.patch));
        break;
      case 'RenderInstance':
        update(action.name, (i) => ({
          ...i,
          pod: {
            metadata: { name: action.name, uid: `pod-${action.name}`, creationTimestamp: now },
            status: { phase: 'Pending' },
          },
          configSecret: { data: { ...(i.desiredConfigSecretData ?? { 'config.yaml': 'cmVuZGVyZWQ=' }) } },
        }));
        break;
      case 'SyncConfigSecret':
        update(action.name, (i) => ({
          ...i,
          configSecret: { data: { ...(i.desiredConfigSecretData ?? i.configSecret?.data ?? {}) } },
        }));
        break;
      case 'LabelInstance': {
        const labelled = <T extends { metadata?: { labels?: Readonly<Record<string, string>> } }>(
          object: T | undefined,
          labels: Readonly<Record<string, string>> | undefined,
        ): T | undefined =>
          object && labels
            ? {
                ...object,
                metadata: { ...object.metadata, labels: { ...object.metadata?.labels, ...labels } },
              }
            : object;
        update(action.name, (i) => ({
          ...i,
          exporter: labelled(i.exporter, action.exporter)!,
          ...(i.pod ? { pod: labelled(i.pod, action.pod) } : {}),
          ...(i.configSecret ? { configSecret: labelled(i.configSecret, action.configSecret) } : {}),
        }));
        break;
      }
      case 'DeletePod':
        update(action.name, (i) => {
          const { pod: _pod, ...rest } = i;
          return rest;
        });
        break;
      case 'ReleaseExporter':
      case 'DisableExporter':
        update(action.name, (i) => patchExporter(i, action.patch));
        break;
      case 'DeleteExporter':
        instances = instances.filter((i) => i.exporter.metadata?.name !== action.name);
        break;
      case 'RecordRevision':
        revisions = [...(revisions ?? []), action.revision];
        break;
      case 'DeleteRevision':
        revisions = (revisions ?? []).filter((r) => r.metadata.name !== action.revisionName);
        break;
    }
  }
  return {
    ...snapshot,
    set,
    instances,
    ...(revisions !== undefined ? { revisions } : {}),
    ...(gone ? { gone } : {}),
  };
}

export interface Settled {
  readonly snapshot: PlannerSnapshot & { gone?: boolean };
  /** Passes that planned an action or a status change. */
  readonly passes: number;
  readonly plans: readonly Plan[];
}

/**
 * Plans and applies until a pass plans no action and no status change (or the set is gone); throws
 * after `limit` passes.
 */
export function settle(start: PlannerSnapshot, limit = 20): Settled {
  let current: PlannerSnapshot & { gone?: boolean } = start;
  const plans: Plan[] = [];
  for (let pass = 0; pass < limit; pass++) {
    const result = plan(current);
    plans.push(result);
    if (result.actions.length === 0 && statusEquals(result.status, current.set.status)) {
      return { snapshot: applyPlan(current, result), passes: pass, plans };
    }
    current = applyPlan(current, result);
    if (current.gone) return { snapshot: current, passes: pass + 1, plans };
  }
  throw new Error(
    `no fixed point after ${limit} passes; last actions: ${JSON.stringify(plans[plans.length - 1].actions.map((a) => a.type))}`,
  );
}

/** True when the instance carries the standby label. */
export function isStandby(instance: InstanceSnapshot): boolean {
  return instance.exporter.metadata?.labels?.[Labels.standby] === 'true';
}

/**
 * Test-only world: what Jumpstarter and the kubelet would do with no delay — every Exporter gets its
 * credential and endpoint, every Pending Pod runs and its exporter comes online.
 */
export function bootAll(snapshot: PlannerSnapshot): PlannerSnapshot {
  const now = new Date(snapshot.now).toISOString();
  const instances = snapshot.instances.map((i): InstanceSnapshot => {
    const status = i.exporter.status ?? {};
    const withCredential = status.credential
      ? status
      : { ...status, credential: { name: 'c' }, endpoint: 'e' };
    if (i.pod?.status?.phase !== 'Pending')
      return { ...i, exporter: { ...i.exporter, status: withCredential } };
    const online = (type: string) => ({
      type,
      status: 'True' as const,
      reason: 'Seen',
      message: '',
      lastTransitionTime: now,
    });
    return {
      ...i,
      pod: { ...i.pod, status: { phase: 'Running' } },
      exporter: {
        ...i.exporter,
        status: { ...withCredential, conditions: [online('Registered'), online('Online')], lastSeen: now },
      },
    };
  });
  return { ...snapshot, instances };
}
