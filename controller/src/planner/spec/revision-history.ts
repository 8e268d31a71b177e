/**
 * Revision history (after Unbounded's versioned configurations): every revision instances of
 * the set run is recorded as an immutable `apps/v1` ControllerRevision the set controls, so a pool can
 * be rolled back to it by pinning (pinning.ts).
 *
 * - A revision is recorded when an instance runs it or this pass creates one of it, once: its name is
 *   `<set>-<revision hash>`, its `data` the inputs the hash covers (template, merged parameters,
 *   effective images, scheduling), its `revision` one above the highest recorded. Only the target
 *   revision can be recorded (its inputs are the ones at hand); the controller never updates one.
 * - Pruning: recorded revisions no instance runs, other than the template's and the pinned one, are
 *   kept up to `spec.revisionHistoryLimit` (newest first); older ones are deleted. A revision any
 *   Exporter of the set carries (leased, leaving or detached alike) is never deleted, and nothing is
 *   while creates are in flight that the cache does not show (their revision cannot be seen).
 * - Only ControllerRevisions the set controls whose `data` hashes to their revision label count: one
 *   written by hand with other data is neither used nor pruned.
 */
import {
  CONTROLLER_REVISION_API_VERSION,
  CONTROLLER_REVISION_KIND,
  Defaults,
  Labels,
  NestingTooDeepError,
  isPlainObject,
  templateRevision,
  type ControllerRevision,
  type ExporterSet,
  type RevisionInputs,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { Action, DeleteRevisionAction, RecordRevisionAction } from '../model/actions';
import { setOwnerReference } from '../model/exporter';
import { count } from '../model/wire-guards';
import { revisionInputs } from './revision';

/** A ControllerRevision of the set, read. */
export interface RecordedRevision {
  readonly name: string;
  readonly uid?: string;
  /** The revision hash (the instances' template-revision label). */
  readonly hash: string;
  /** The ControllerRevision's `revision`. */
  readonly number: number;
  readonly inputs: RevisionInputs;
}

/** The ControllerRevision recording revision `hash` of the set. */
export function revisionName(set: ExporterSet, hash: string): string {
  return `${set.metadata?.name ?? ''}-${hash}`;
}

/** Whether the set controls `revision` (its uid, when both have one). */
function controlledBy(revision: ControllerRevision, set: ExporterSet): boolean {
  const uid = set.metadata?.uid;
  return (revision.metadata?.ownerReferences ?? []).some(
    (ref) =>
      ref.controller === true &&
      ref.kind === 'ExporterSet' &&
      ref.name === set.metadata?.name &&
      (uid === undefined || ref.uid === uid),
  );
}

/** The inputs `data` records, when it hashes to `hash`; undefined otherwise. */
function inputsOf(data: unknown, hash: string): RevisionInputs | undefined {
  if (!isPlainObject(data)) return undefined;
  const inputs = data as RevisionInputs;
  try {
    return templateRevision(inputs) === hash ? inputs : undefined;
  } catch (error) {
    if (error instanceof NestingTooDeepError) return undefined;
    throw error;
  }
}

/** The set's recorded revisions (see the module doc), by ascending revision number. */
export function recordedRevisions(
  set: ExporterSet,
  revisions: readonly ControllerRevision[],
): RecordedRevision[] {
  const found: RecordedRevision[] = [];
  for (const revision of revisions) {
    const hash = revision.metadata?.labels?.[Labels.templateRevision];
    const name = revision.metadata?.name;
    if (!hash || !name || !controlledBy(revision, set)) continue;
    if (revision.metadata?.deletionTimestamp !== undefined) continue;
    const inputs = inputsOf(revision.data, hash);
    if (inputs === undefined) continue;
    const uid = revision.metadata?.uid;
    found.push({ name, ...(uid ? { uid } : {}), hash, number: count(revision.revision, 0), inputs });
  }
  return found.sort((a, b) => a.number - b.number || a.name.localeCompare(b.name));
}

/** The ControllerRevision that records `inputs` (revision `hash`, number `number`) for the set. */
export function desiredRevision(
  set: ExporterSet,
  hash: string,
  number: number,
  inputs: RevisionInputs,
): ControllerRevision {
  const owner = setOwnerReference(set);
  const namespace = set.metadata?.namespace;
  return {
    apiVersion: CONTROLLER_REVISION_API_VERSION,
    kind: CONTROLLER_REVISION_KIND,
    metadata: {
      name: revisionName(set, hash),
      ...(namespace ? { namespace } : {}),
      labels: { [Labels.exporterSetName]: set.metadata?.name ?? '', [Labels.templateRevision]: hash },
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    // JSON round trip: the recorded data is what the API server stores, undefined members dropped.
    data: JSON.parse(JSON.stringify(inputs)) as unknown,
    revision: number,
  };
}

/** What the recording and the pruning of one pass read. */
export interface HistoryInput {
  /** The set as the pass builds instances from it (pinned or not), and its class. */
  readonly set: ExporterSet;
  readonly cls: VirtualTargetClass;
  /** The revision new instances get. */
  readonly target: string | undefined;
  /** The template's own revision (pinned or not), kept for the unpin. */
  readonly template: string | undefined;
  /** The pinned revision's hash, when the set is pinned to a recorded one. */
  readonly pinned: string | undefined;
  readonly recorded: readonly RecordedRevision[];
  /** Every revision an Exporter of the set carries. */
  readonly inUse: ReadonlySet<string>;
  /** This pass creates instances (of `target`). */
  readonly creating: boolean;
  /**
   * Exporter creates are in flight that the cache does not show yet: their revision is not among
   * `inUse`, so nothing is pruned until they show.
   */
  readonly createsInFlight: boolean;
}

/** The target revision's record, when an instance runs it (or is created with it) and none exists. */
function recordTarget(input: HistoryInput): RecordRevisionAction | undefined {
  const { set, cls, target, recorded } = input;
  if (target === undefined || input.pinned !== undefined) return undefined;
  if (recorded.some((r) => r.hash === target)) return undefined;
  if (!input.creating && !input.inUse.has(target)) return undefined;
  let inputs: RevisionInputs;
  try {
    inputs = revisionInputs(set, cls);
    // The inputs at hand may be of another revision (too deep to hash: the last one is kept).
    if (templateRevision(inputs) !== target) return undefined;
  } catch (error) {
    if (error instanceof NestingTooDeepError) return undefined;
    throw error;
  }
  const number = Math.max(0, ...recorded.map((r) => r.number)) + 1;
  return { type: 'RecordRevision', revision: desiredRevision(set, target, number, inputs) };
}

/** The recorded revisions beyond the history limit that nothing uses (see the module doc). */
function pruned(input: HistoryInput): DeleteRevisionAction[] {
  if (input.createsInFlight) return [];
  const limit = count(input.set.spec?.revisionHistoryLimit, Defaults.revisionHistoryLimit);
  const live = new Set([...input.inUse, input.target, input.template, input.pinned]);
  const unused = input.recorded.filter((r) => !live.has(r.hash)).sort((a, b) => b.number - a.number);
  return unused.slice(limit).map((r) => ({
    type: 'DeleteRevision',
    revisionName: r.name,
    ...(r.uid ? { uid: r.uid } : {}),
  }));
}

/** The pass's revision writes: the target's record and the history's pruning (none while untracked). */
export function revisionActions(tracked: boolean, input: HistoryInput): Action[] {
  if (!tracked) return [];
  const record = recordTarget(input);
  return [...(record ? [record] : []), ...pruned(input)];
}

/** What the status names: the revision new instances are built from, and the pinned one. */
export interface RevisionStatus {
  readonly current?: string;
  readonly pinned?: string;
}

/**
 * `status.currentRevision` names the target's ControllerRevision once it is recorded or recorded this
 * pass (an instance runs it or is created with it); `status.pinnedRevision` the pinned one.
 */
export function revisionStatus(
  tracked: boolean,
  set: ExporterSet,
  f: {
    readonly target: string | undefined;
    readonly pinned: RecordedRevision | undefined;
    readonly recorded: readonly RecordedRevision[];
    readonly inUse: ReadonlySet<string>;
    readonly creating: boolean;
  },
): RevisionStatus {
  const { target } = f;
  const recorded =
    tracked &&
    target !== undefined &&
    (f.recorded.some((r) => r.hash === target) || f.inUse.has(target) || f.creating);
  return {
    ...(recorded ? { current: revisionName(set, target) } : {}),
    ...(f.pinned ? { pinned: f.pinned.name } : {}),
  };
}
