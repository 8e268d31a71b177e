/**
 * The Jumpstarter simulator's writes, each a step over the port (`coroutine.ts`): merge patches of
 * metadata and of the status subresource, and what they carry. A write to an object that is gone
 * (404) is no failure — whoever deleted it raced the pass, and the watch tells the pass soon.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  JUMPSTARTER_API_VERSION,
  Kinds,
  Labels,
  LeaseConditionTypes,
  type Exporter,
  type ExporterStatus,
  type Lease,
  type LeaseStatus,
} from 'virtual-exporters/internal';
import { wait, type ClusterPort, type SimulatedKind, type Step } from '../port';
import { ApiError, type KubeObject } from '../types';
import { setCondition, timestamp, type ConditionUpdate } from './conditions';
import { AssignmentReasons } from './lease-assignment';
import { nameOf } from './namespace-index';

const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.code === 404;

/** Exporter status fields the simulator owns; any other field a writer put there is left alone. */
const OWNED_EXPORTER_FIELDS = [
  'conditions',
  'credential',
  'endpoint',
  'leaseRef',
  'exporterStatus',
  'statusMessage',
  'lastSeen',
  'devices',
] as const;

/** Merges `status` into the status subresource; undefined when the object is gone. */
export function* patchStatus(
  port: ClusterPort,
  kind: SimulatedKind,
  namespace: string,
  name: string,
  status: object,
): Step<KubeObject | undefined> {
  try {
    return yield* wait(port.patch(kind, namespace, name, { status }, 'status'));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Merges `metadata` into the object; false when the object is gone. */
export function* patchMetadata(
  port: ClusterPort,
  kind: SimulatedKind,
  namespace: string,
  name: string,
  metadata: object,
): Step<boolean> {
  try {
    yield* wait(port.patch(kind, namespace, name, { metadata }));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** Labels an ended Lease `jumpstarter.dev/lease-ended=true` unless it carries the label. */
export function* labelEnded(port: ClusterPort, lease: Lease, namespace: string): Step<void> {
  if (lease.metadata.labels?.[Labels.leaseEnded] === 'true') return;
  yield* patchMetadata(port, 'Lease', namespace, nameOf(lease), {
    labels: { [Labels.leaseEnded]: 'true' },
  });
}

/** Ends a Lease (`ended`, `endTime`, the condition of `update`) and labels it. */
export function* writeEnd(
  port: ClusterPort,
  lease: Lease,
  namespace: string,
  update: ConditionUpdate,
  now: number,
): Step<void> {
  const conditions = setCondition(lease.status?.conditions, update, now);
  const written = yield* patchStatus(port, 'Lease', namespace, nameOf(lease), {
    ended: true,
    endTime: timestamp(now),
    conditions,
  });
  if (written !== undefined) yield* labelEnded(port, lease, namespace);
}

/** The Lease's owner references with `exporter` as its controller (other owners kept). */
export function* writeLeaseOwner(
  port: ClusterPort,
  lease: Lease,
  namespace: string,
  exporter: Exporter,
): Step<boolean> {
  const owner = {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: Kinds.Exporter,
    name: nameOf(exporter),
    uid: exporter.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const others = (lease.metadata.ownerReferences ?? []).filter((r) => r.controller !== true);
  return yield* patchMetadata(port, 'Lease', namespace, nameOf(lease), {
    ownerReferences: [...others, owner],
  });
}

/** The status of a Lease assigned to `exporter` now. Pending, when it was set, stays True (INTEROP §2). */
export function assignedStatus(
  lease: Lease,
  exporter: Exporter,
  grant: { readonly priority: number; readonly spotAccess: boolean },
  now: number,
): LeaseStatus {
  const conditions = setCondition(
    lease.status?.conditions,
    {
      type: LeaseConditionTypes.Ready,
      status: 'True',
      reason: AssignmentReasons.Acquired,
      message: `exporter ${nameOf(exporter)} acquired`,
    },
    now,
  );
  return {
    ended: false,
    exporterRef: { name: nameOf(exporter) },
    beginTime: timestamp(now),
    priority: grant.priority,
    spotAccess: grant.spotAccess,
    conditions,
  };
}

/** Writes the status fields the simulator owns where they differ from `desired` (none: no write). */
export function* writeExporterStatus(
  port: ClusterPort,
  exporter: Exporter,
  namespace: string,
  desired: ExporterStatus,
): Step<void> {
  const current = (exporter.status ?? {}) as Record<string, unknown>;
  const wanted = desired as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  for (const field of OWNED_EXPORTER_FIELDS) {
    if (wanted[field] === undefined) {
      if (current[field] !== undefined) patch[field] = null;
    } else if (!isDeepStrictEqual(current[field], wanted[field])) {
      patch[field] = wanted[field];
    }
  }
  if (Object.keys(patch).length > 0) yield* patchStatus(port, 'Exporter', namespace, nameOf(exporter), patch);
}
