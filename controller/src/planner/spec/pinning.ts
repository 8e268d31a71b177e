/**
 * Rollback by pinning (after Unbounded's versioned configurations): `spec.pinnedRevision`
 * names a recorded revision (revision-history.ts) by ControllerRevision name or revision hash.
 *
 * - Found: the set is built from the revision's recorded inputs instead of its template — the pass
 *   sees the set and class as they were then (`pinnedView`), so new instances get that revision and
 *   its rendering, and instances of other revisions are outdated: the rollout (rollout.ts) replaces
 *   them as after a template change, leased ones after their lease. `RevisionPinned=True`.
 * - Not found: `RevisionPinned=False` names the value and the fix, and no instance is touched (as a
 *   missing class): rolling to a revision nobody can show would be a guess.
 * - Unset: the template. A `RevisionPinned` condition from an earlier pin turns False (NotPinned).
 */
import {
  ConditionReasons as R,
  ConditionTypes,
  ExporterSetBounds,
  type Condition,
  type ExporterSet,
  type ExporterTemplate,
  type RevisionInputs,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { ConditionInput } from '../model/conditions';
import type { RecordedRevision } from './revision-history';

export type Pin =
  | { readonly kind: 'none' }
  | { readonly kind: 'found'; readonly revision: RecordedRevision }
  | { readonly kind: 'unknown'; readonly value: string };

/** What `spec.pinnedRevision` names among the recorded revisions. */
export function resolvePin(set: ExporterSet, recorded: readonly RecordedRevision[]): Pin {
  const value = set.spec?.pinnedRevision;
  if (typeof value !== 'string' || value === '') return { kind: 'none' };
  const revision = recorded.find((r) => r.name === value) ?? recorded.find((r) => r.hash === value);
  return revision ? { kind: 'found', revision } : { kind: 'unknown', value };
}

/**
 * The set and class as a revision recorded them: its template, and its merged parameters, effective
 * images and scheduling on the class (the set adds none), so every rule and render that reads them
 * reads the revision, and the revision hash of the view is the recorded one.
 */
export function pinnedView(
  set: ExporterSet,
  cls: VirtualTargetClass,
  inputs: RevisionInputs,
): { readonly set: ExporterSet; readonly cls: VirtualTargetClass } {
  const { parameters: _parameters, images: _images, ...setSpec } = set.spec;
  const { parameters: _p, images: _i, scheduling: _s, ...classSpec } = cls.spec ?? {};
  return {
    set: {
      ...set,
      spec: { ...setSpec, template: inputs.template as ExporterTemplate },
    },
    cls: {
      ...cls,
      spec: {
        ...classSpec,
        ...(inputs.parameters !== undefined ? { parameters: inputs.parameters } : {}),
        ...(inputs.images !== undefined ? { images: inputs.images } : {}),
        ...(inputs.scheduling !== undefined ? { scheduling: inputs.scheduling } : {}),
      } as VirtualTargetClass['spec'],
    },
  };
}

/** The pinned view of a set and class from its ControllerRevisions; unchanged when not pinned to a found one. */
export function viewOf(
  set: ExporterSet,
  cls: VirtualTargetClass | undefined,
  pin: Pin,
): { readonly set: ExporterSet; readonly cls: VirtualTargetClass | undefined } {
  if (pin.kind !== 'found' || cls === undefined) return { set, cls };
  return pinnedView(set, cls, pin.revision.inputs);
}

/** A value as a message shows it: at most a revision name's length (admission bounds it; a CRD without our rules may not). */
function shown(value: string): string {
  return value.length <= ExporterSetBounds.pinnedRevision
    ? value
    : `${value.slice(0, ExporterSetBounds.pinnedRevision)}…`;
}

/** The RevisionPinned condition; undefined while the set was never pinned. */
export function pinCondition(
  pin: Pin,
  previous: readonly Condition[] | undefined,
  setName: string,
): ConditionInput | undefined {
  const type = ConditionTypes.RevisionPinned;
  switch (pin.kind) {
    case 'found':
      return {
        type,
        status: 'True',
        reason: R.PinnedRevisionFound,
        message: `spec.pinnedRevision names ControllerRevision ${pin.revision.name} (revision ${pin.revision.number}, hash ${pin.revision.hash}): new instances are built from it and instances of other revisions are replaced; remove spec.pinnedRevision to follow the template again`,
      };
    case 'unknown':
      return {
        type,
        status: 'False',
        reason: R.PinnedRevisionNotFound,
        message: `spec.pinnedRevision "${shown(pin.value)}" names no recorded revision of ExporterSet ${setName}, so no instance is changed; set it to the name or hash of one of the set's ControllerRevisions (kubectl get controllerrevisions -l exporterset.jumpstarter.dev/name=${setName}) or remove it to follow the template`,
      };
    case 'none':
      return previous?.some((c) => c.type === type)
        ? {
            type,
            status: 'False',
            reason: R.NotPinned,
            message: 'spec.pinnedRevision is not set: instances are built from the template',
          }
        : undefined;
  }
}
