/**
 * Builders for planner tests: a set `pool` in namespace `lab` with a QEMU class, instances in a named
 * state, leases, and the snapshot that ties them together. Times are offsets from T0 (ms).
 */
import {
  Annotations,
  API_VERSION,
  DRAIN_FINALIZER,
  JUMPSTARTER_API_VERSION,
  Labels,
  LeaseConditionTypes,
  qemuProvisioner,
  type Condition,
  type Exporter,
  type ExporterSet,
  type ExporterSetSpec,
  type ExporterSetStatus,
  type JsonObject,
  type Lease,
  type VirtualTargetClass,
  type VirtualTargetClassSpec,
} from 'virtual-exporters/internal';
import {
  currentRevision,
  type Action,
  type ActionType,
  type InFlight,
  type InstanceSnapshot,
  type Plan,
  type PlannerOptions,
  type PlannerSnapshot,
  type PodView,
} from '../../src/planner';

export const T0 = Date.parse('2026-03-01T12:00:00.000Z');
export const at = (ms: number): string => new Date(T0 + ms).toISOString();
export const SET = 'pool';
export const NS = 'lab';
export const SET_UID = 'uid-pool';
export const TEMPLATE_LABELS = { board: 'rpi4', virtual: 'true' };

/** `{a: {a: … {leaf: 1}}}` with `levels` objects: parameters as deep as a test needs (§3.19). */
export function nested(levels: number): JsonObject {
  let value: JsonObject = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

export function makeClass(spec: Partial<VirtualTargetClassSpec> = {}): VirtualTargetClass {
  return {
    apiVersion: API_VERSION,
    kind: 'VirtualTargetClass',
    metadata: { name: 'qemu-rpi4', namespace: NS },
    spec: { provisioner: qemuProvisioner.name, parameters: { arch: 'aarch64' }, ...spec },
  };
}

export interface SetOptions {
  readonly status?: Partial<ExporterSetStatus>;
  readonly finalizers?: readonly string[];
  readonly deleting?: boolean;
  readonly generation?: number;
}

export function makeSet(spec: Partial<ExporterSetSpec> = {}, options: SetOptions = {}): ExporterSet {
  return {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: {
      name: SET,
      namespace: NS,
      uid: SET_UID,
      generation: options.generation ?? 1,
      creationTimestamp: at(-3_600_000),
      finalizers: [...(options.finalizers ?? [DRAIN_FINALIZER])],
      ...(options.deleting ? { deletionTimestamp: at(0) } : {}),
    },
    spec: {
      minReplicas: 0,
      maxReplicas: 0,
      minAvailableReplicas: 0,
      scaleDownCooldown: '5m',
      recycleStrategy: 'ExitAndReplace',
      virtualTargetClassName: 'qemu-rpi4',
      selector: { matchLabels: { board: 'rpi4' } },
      template: { metadata: { labels: { ...TEMPLATE_LABELS } } },
      ...spec,
    },
    ...(options.status ? { status: options.status as ExporterSetStatus } : {}),
  };
}

/** The states an instance can be built in. */
export type Shape =
  /** Online and registered, Pod Running. */
  | 'available'
  /** Pod Pending, never seen. */
  | 'starting'
  /** Exporter with credential and endpoint, no Pod yet. */
  | 'unrendered'
  /** Exporter just created: no credential, no Pod. */
  | 'new'
  /** Standby label, credential, no Pod. */
  | 'standby'
  /** Pod Running, exporter seen after the Pod started, now not online. */
  | 'offline'
  /** Pod Succeeded after serving (ExitAndReplace at lease end). */
  | 'exited'
  /** Pod Failed before the exporter was ever seen (startup failure). */
  | 'failed'
  /** Pod Failed after the exporter had been ready. */
  | 'crashed';

export interface InstanceOptions {
  /** Template revision label; default: the current one of `makeSet()`/`makeClass()`. */
  readonly revision?: string;
  /** Exporter creation, ms after T0 (default: -600_000 + ordinal); at least 10 s before T0. */
  readonly createdAt?: number;
  readonly enabled?: boolean;
  /** Our retiring marker (disabled by the controller). */
  readonly retiring?: string;
  readonly manuallyDisabled?: boolean;
  readonly detached?: boolean;
  readonly deleting?: boolean;
  /** When the Pod ended (failed/exited/crashed), ms after T0. */
  readonly endedAt?: number;
  readonly configData?: Record<string, string>;
  readonly desiredConfigData?: Record<string, string>;
  readonly noConfigSecret?: boolean;
  readonly leaseRef?: string;
}

const condition = (type: string, status: 'True' | 'False', when: number): Condition => ({
  type,
  status,
  reason: status === 'True' ? 'Seen' : 'Offline',
  message: '',
  lastTransitionTime: at(when),
});

let defaultRevision: string | undefined;
export function revisionOf(set: ExporterSet = makeSet(), cls: VirtualTargetClass = makeClass()): string {
  return currentRevision(set, cls)!;
}
function currentDefault(): string {
  defaultRevision ??= revisionOf();
  return defaultRevision;
}

export function instance(ordinal: number, shape: Shape, options: InstanceOptions = {}): InstanceSnapshot {
  const name = `${SET}-${ordinal}`;
  const created = options.createdAt ?? -600_000 + ordinal;
  const podCreated = created + 1_000;
  const ended = options.endedAt ?? -1_000;
  const online = shape === 'available';
  const seen =
    shape === 'available' || shape === 'offline'
      ? podCreated + 5_000
      : shape === 'exited' || shape === 'crashed'
        ? ended
        : undefined;
  const withCredential = shape !== 'new';
  const annotations: Record<string, string> = { 'exporterset.jumpstarter.dev/ordinal': String(ordinal) };
  if (options.retiring) annotations[Annotations.retiring] = options.retiring;
  if (options.manuallyDisabled) annotations['exporterset.jumpstarter.dev/manually-disabled'] = 'true';
  const exporter: Exporter = {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Exporter',
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: at(created),
      labels: {
        ...TEMPLATE_LABELS,
        [Labels.exporterSetName]: SET,
        [Labels.templateRevision]: options.revision ?? currentDefault(),
        ...(shape === 'standby' ? { [Labels.standby]: 'true' } : {}),
      },
      annotations,
      ...(options.detached
        ? {}
        : {
            ownerReferences: [
              { apiVersion: API_VERSION, kind: 'ExporterSet', name: SET, uid: SET_UID, controller: true },
            ],
          }),
      ...(options.deleting ? { deletionTimestamp: at(0) } : {}),
    },
    spec: { enabled: options.enabled ?? true },
    status: {
      conditions: [
        condition('Registered', online ? 'True' : 'False', created),
        condition('Online', online ? 'True' : 'False', created),
      ],
      ...(withCredential ? { credential: { name: `${name}-exporter` }, endpoint: 'grpc.example:443' } : {}),
      ...(seen !== undefined ? { lastSeen: at(seen) } : {}),
      ...(options.leaseRef ? { leaseRef: { name: options.leaseRef } } : {}),
    },
  };
  const phase: Record<Shape, string | undefined> = {
    available: 'Running',
    starting: 'Pending',
    unrendered: undefined,
    new: undefined,
    standby: undefined,
    offline: 'Running',
    exited: 'Succeeded',
    failed: 'Failed',
    crashed: 'Failed',
  };
  const pod: PodView | undefined =
    phase[shape] === undefined
      ? undefined
      : {
          metadata: { name, uid: `pod-${name}`, creationTimestamp: at(podCreated) },
          status: {
            phase: phase[shape],
            ...(shape === 'failed' || shape === 'crashed' || shape === 'exited'
              ? {
                  containerStatuses: [
                    {
                      name: 'exporter',
                      state: {
                        terminated: {
                          exitCode: shape === 'exited' ? 0 : 1,
                          reason: shape === 'exited' ? 'Completed' : 'Error',
                          message: shape === 'exited' ? 'lease ended' : 'boom',
                          finishedAt: at(ended),
                        },
                      },
                    },
                  ],
                }
              : {}),
          },
        };
  const data = options.configData ?? { 'config.yaml': 'Y29uZmln' };
  return {
    exporter,
    ...(pod ? { pod } : {}),
    ...(pod && !options.noConfigSecret
      ? { configSecret: { metadata: { name: `exporter-config-${name}` }, data } }
      : {}),
    ...(options.desiredConfigData ? { desiredConfigSecretData: options.desiredConfigData } : {}),
  };
}

export interface LeaseOptions {
  /** Assigned to this exporter (status.exporterRef). */
  readonly exporter?: string;
  readonly ended?: boolean;
  /** Pending=True (default for unassigned, not ended leases). */
  readonly pending?: boolean;
  readonly selector?: Record<string, string>;
  readonly pinnedTo?: string;
  /** spec.beginTime, ms after T0. */
  readonly beginAt?: number;
}

export function lease(name: string, options: LeaseOptions = {}): Lease {
  const pending = options.pending ?? (!options.exporter && !options.ended);
  return {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Lease',
    metadata: {
      name,
      namespace: NS,
      ...(options.ended ? { labels: { [Labels.leaseEnded]: 'true' } } : {}),
    },
    spec: {
      clientRef: { name: 'ci' },
      selector: { matchLabels: options.selector ?? { board: 'rpi4' } },
      ...(options.pinnedTo ? { exporterRef: { name: options.pinnedTo } } : {}),
      ...(options.beginAt !== undefined ? { beginTime: at(options.beginAt) } : {}),
    },
    status: {
      ended: options.ended ?? false,
      ...(options.exporter ? { exporterRef: { name: options.exporter } } : {}),
      conditions: [
        {
          type: LeaseConditionTypes.Pending,
          status: pending || options.exporter ? 'True' : 'False',
          reason: 'NotAvailable',
          message: '',
          lastTransitionTime: at(-1_000),
        },
      ],
    },
  };
}

export interface SnapshotInput {
  readonly set?: ExporterSet;
  readonly cls?: VirtualTargetClass | null;
  readonly instances?: readonly InstanceSnapshot[];
  readonly leases?: readonly Lease[];
  readonly inFlight?: InFlight;
  /** ms after T0. */
  readonly now?: number;
  readonly options?: Partial<PlannerOptions>;
}

export function snapshot(input: SnapshotInput = {}): PlannerSnapshot {
  return {
    set: input.set ?? makeSet(),
    virtualTargetClass: input.cls === null ? undefined : (input.cls ?? makeClass()),
    provisioner: qemuProvisioner,
    instances: input.instances ?? [],
    leases: input.leases ?? [],
    ...(input.inFlight ? { inFlight: input.inFlight } : {}),
    now: T0 + (input.now ?? 0),
    ...(input.options ? { options: input.options } : {}),
  };
}

/** The actions of one type, typed. */
export function ofType<T extends ActionType>(plan: Plan, type: T): Extract<Action, { type: T }>[] {
  return plan.actions.filter((a): a is Extract<Action, { type: T }> => a.type === type);
}

/** Names of the actions of one type, sorted. */
export function namesOf(plan: Plan, type: Exclude<ActionType, 'AddFinalizer' | 'RemoveFinalizer'>): string[] {
  return ofType(plan, type)
    .map((a) => (a as { name: string }).name)
    .sort();
}

export function conditionOf(plan: Plan, type: string): Condition | undefined {
  return plan.status?.conditions?.find((c) => c.type === type);
}

/**
 * An instance made the way upstream's controller makes one (INTEROP §1.3): named by `generateName`
 * (`pool-<suffix>`), controller-owned by the set, the template labels only (no set label, no revision,
 * no ordinal annotation); its Pod labelled with the set and owned by the Exporter; its config Secret
 * owned by the Exporter, unlabelled. `shape` and `options` as for {@link instance}.
 */
export function adoptedInstance(
  suffix: string,
  shape: Shape,
  options: InstanceOptions = {},
): InstanceSnapshot {
  const base = instance(0, shape, options);
  const name = `${SET}-${suffix}`;
  const uid = `uid-${name}`;
  const ownedByExporter = [
    { apiVersion: JUMPSTARTER_API_VERSION, kind: 'Exporter', name, uid, controller: true },
  ];
  const {
    [Labels.exporterSetName]: _set,
    [Labels.templateRevision]: _revision,
    ...kept
  } = base.exporter.metadata?.labels ?? {};
  const exporter: Exporter = {
    ...base.exporter,
    metadata: {
      ...base.exporter.metadata,
      name,
      uid,
      labels: { ...kept, ...(options.revision ? { [Labels.templateRevision]: options.revision } : {}) },
      annotations: Object.fromEntries(
        Object.entries(base.exporter.metadata?.annotations ?? {}).filter(
          ([key]) => key !== Annotations.ordinal,
        ),
      ),
    },
    status: {
      ...base.exporter.status,
      ...(base.exporter.status?.credential ? { credential: { name: `${name}-exporter` } } : {}),
    },
  };
  return {
    ...base,
    exporter,
    ...(base.pod
      ? {
          pod: {
            ...base.pod,
            metadata: {
              ...base.pod.metadata,
              name,
              uid: `pod-${name}`,
              labels: { ...TEMPLATE_LABELS, [Labels.exporterSetName]: SET },
              ownerReferences: ownedByExporter,
            },
          },
        }
      : {}),
    ...(base.configSecret
      ? {
          configSecret: {
            ...base.configSecret,
            metadata: { name: `exporter-config-${name}`, ownerReferences: ownedByExporter },
          },
        }
      : {}),
  };
}
