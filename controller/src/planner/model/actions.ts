/**
 * The writes a plan asks for. Each names its target by Exporter name (Pods and config Secrets are named
 * after their Exporter) and carries what the executor needs to send it without deciding anything.
 *
 * A plan lists them in the order the executor applies them, one group after the other:
 * AddFinalizer, RecordRevision, CreateExporter, PromoteStandby, RenderInstance, SyncConfigSecret,
 * LabelInstance, DeletePod, ReleaseExporter, DisableExporter, DeleteExporter, DeleteRevision,
 * RemoveFinalizer. Creates come before disables and
 * deletes, so a lease never sees a pool with nothing enabled while one instance replaces another.
 */
import { type ControllerRevision, type Exporter, type ScaleReason } from 'virtual-exporters/internal';
import type { ExporterMergePatch } from './exporter';

/** Add the drain finalizer (`DRAIN_FINALIZER`) to the set. */
export interface AddFinalizerAction {
  readonly type: 'AddFinalizer';
}

/** Remove the drain finalizer: the set has drained and may go. */
export interface RemoveFinalizerAction {
  readonly type: 'RemoveFinalizer';
}

/**
 * Create an Exporter; AlreadyExists on one the set owns means an earlier create of this name landed
 * (names are never reused); on one it does not own, the name is skipped.
 */
export interface CreateExporterAction {
  readonly type: 'CreateExporter';
  readonly name: string;
  readonly ordinal: number;
  /** Created as a standby: the CR only, no Pod until promoted. */
  readonly standby: boolean;
  readonly revision: string;
  readonly reason: ScaleReason;
  /** The object to POST (see `desiredExporter`). */
  readonly exporter: Exporter;
}

/** Merge-patch the standby label away; the instance gets its Pod (RenderInstance, same or next pass). */
export interface PromoteStandbyAction {
  readonly type: 'PromoteStandby';
  readonly name: string;
  readonly reason: ScaleReason;
  readonly patch: ExporterMergePatch;
}

/**
 * Render the instance with the provisioner and create what it returns (config Secret, then Pod). Planned
 * only once the Exporter has `status.credential` and `status.endpoint`; a credential Secret without a
 * token yet is a transient error (the provisioner's render says so), retried with the key's backoff.
 */
export interface RenderInstanceAction {
  readonly type: 'RenderInstance';
  readonly name: string;
}

/** Re-render the config Secret and write it (token rotated, template changed, or the Secret missing). */
export interface SyncConfigSecretAction {
  readonly type: 'SyncConfigSecret';
  readonly name: string;
}

/**
 * Add the controller's labels to an instance it owns but did not label (adoption.ts): one merge patch of
 * `metadata.labels` per object that lacks some, each map holding only the missing keys.
 */
export interface LabelInstanceAction {
  readonly type: 'LabelInstance';
  /** The Exporter (and Pod) name; the config Secret is `exporter-config-<name>`. */
  readonly name: string;
  readonly exporter?: Readonly<Record<string, string>>;
  readonly pod?: Readonly<Record<string, string>>;
  readonly configSecret?: Readonly<Record<string, string>>;
}

/** Delete the instance's terminated Pod so it can be rendered again (InPlaceReuse keeps the Exporter). */
export interface DeletePodAction {
  readonly type: 'DeletePod';
  /** The Exporter (and Pod) name. */
  readonly name: string;
  /** The Pod's uid, for a delete precondition, when known. */
  readonly podUid?: string;
  readonly reason: ScaleReason;
}

/**
 * A removal the planner makes conditional on this pass's creates: a template rollout removes an outdated
 * instance only once its replacement exists, so when any create of the pass fails the executor skips it
 * (the next pass plans it again).
 */
export interface AfterCreates {
  readonly afterCreates?: true;
}

/** reclaimPolicy Retain: disable the instance and detach it from the set (see `releasePatch`). */
export interface ReleaseExporterAction extends AfterCreates {
  readonly type: 'ReleaseExporter';
  readonly name: string;
  readonly reason: ScaleReason;
  readonly patch: ExporterMergePatch;
}

/** Merge-patch `spec.enabled: false` with the retiring marker; a later pass deletes it once no lease names it. */
export interface DisableExporterAction extends AfterCreates {
  readonly type: 'DisableExporter';
  readonly name: string;
  readonly reason: ScaleReason;
  readonly patch: ExporterMergePatch;
}

/** Delete the Exporter (its Pod and config Secret follow by garbage collection). No lease names it. */
export interface DeleteExporterAction extends AfterCreates {
  readonly type: 'DeleteExporter';
  readonly name: string;
  readonly reason: ScaleReason;
}

/**
 * Record a revision of the set (revision-history.ts): create the ControllerRevision, never update it;
 * AlreadyExists means it is recorded (its name is its hash). Sent before the pass's Exporter creates.
 */
export interface RecordRevisionAction {
  readonly type: 'RecordRevision';
  readonly revision: ControllerRevision;
}

/** Delete a recorded revision beyond the history limit that no instance runs (revision-history.ts). */
export interface DeleteRevisionAction {
  readonly type: 'DeleteRevision';
  readonly revisionName: string;
  /** The ControllerRevision's uid, for a delete precondition, when known. */
  readonly uid?: string;
}

export type Action =
  | AddFinalizerAction
  | CreateExporterAction
  | PromoteStandbyAction
  | RenderInstanceAction
  | SyncConfigSecretAction
  | LabelInstanceAction
  | DeletePodAction
  | ReleaseExporterAction
  | DisableExporterAction
  | DeleteExporterAction
  | RemoveFinalizerAction
  | RecordRevisionAction
  | DeleteRevisionAction;

export type ActionType = Action['type'];

/** The order in which a plan lists (and the executor applies) action groups. */
export const ACTION_ORDER: readonly ActionType[] = [
  'AddFinalizer',
  'RecordRevision',
  'CreateExporter',
  'PromoteStandby',
  'RenderInstance',
  'SyncConfigSecret',
  'LabelInstance',
  'DeletePod',
  'ReleaseExporter',
  'DisableExporter',
  'DeleteExporter',
  'DeleteRevision',
  'RemoveFinalizer',
];
