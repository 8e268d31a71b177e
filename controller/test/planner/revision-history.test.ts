/**
 * Revision history and rollback by pinning (issue 16): the revision instances run is recorded once as
 * an immutable ControllerRevision, unused ones are pruned beyond the history limit, and a pin to a
 * recorded revision rolls the pool to it; a pin to no recorded revision touches nothing.
 */
import { describe, expect, it } from '@jest/globals';
import {
  ConditionReasons as R,
  ConditionTypes,
  Labels,
  type ControllerRevision,
  type ExporterSet,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import {
  currentRevision,
  desiredRevision,
  pinnedView,
  plan,
  recordedRevisions,
  revisionInputs,
  type PlannerSnapshot,
} from '../../src/planner';
import { applyPlan, bootAll } from './applier';
import {
  SET,
  SET_UID,
  T0,
  conditionOf,
  instance,
  lease,
  makeClass,
  makeSet,
  ofType,
  revisionOf,
  snapshot,
} from './builders';

/** The ControllerRevision the set would record for `set`/`cls`, numbered `n`. */
function recorded(n: number, set: ExporterSet = makeSet(), cls: VirtualTargetClass = makeClass()) {
  return desiredRevision(set, revisionOf(set, cls), n, revisionInputs(set, cls));
}

const B_SET = makeSet({
  template: { metadata: { labels: { board: 'rpi4', virtual: 'true' }, annotations: { v: '2' } } },
});
const A = revisionOf();
const B = revisionOf(B_SET);

describe('revision history', () => {
  it('records the revision the pass creates instances of, before the creates', () => {
    const result = plan({ ...snapshot({ set: makeSet({ minAvailableReplicas: 1 }) }), revisions: [] });
    const set = makeSet({ minAvailableReplicas: 1 });
    expect(result.actions.map((a) => a.type)).toEqual(['RecordRevision', 'CreateExporter']);
    const [record] = ofType(result, 'RecordRevision');
    expect(record.revision).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${SET}-${A}`,
        namespace: 'lab',
        labels: { [Labels.exporterSetName]: SET, [Labels.templateRevision]: A },
        ownerReferences: [expect.objectContaining({ kind: 'ExporterSet', uid: SET_UID, controller: true })],
      },
      data: JSON.parse(JSON.stringify(revisionInputs(set, makeClass()))),
      revision: 1,
    });
    expect(result.status?.currentRevision).toBe(`${SET}-${A}`);
    expect(result.events).toContainEqual({
      type: 'Normal',
      reason: 'RevisionRecorded',
      message: `recorded revision 1 (${A}) as ControllerRevision ${SET}-${A}: set spec.pinnedRevision to it to roll the pool back to it`,
    });
  });

  it('records a revision instances already run (a set from before revisions were recorded)', () => {
    const result = plan({ ...snapshot({ instances: [instance(0, 'available')] }), revisions: [] });
    expect(ofType(result, 'RecordRevision').map((r) => r.revision.metadata.name)).toEqual([`${SET}-${A}`]);
  });

  it('records nothing already recorded, nothing no instance runs, and nothing while untracked', () => {
    const steady = { ...snapshot({ instances: [instance(0, 'available')] }), revisions: [recorded(1)] };
    expect(plan(steady).actions).toEqual([]);
    expect(plan(steady).status?.currentRevision).toBe(`${SET}-${A}`);
    expect(plan({ ...snapshot({ set: makeSet({ paused: true }) }), revisions: [] }).actions).toEqual([]);
    const untracked = plan(snapshot({ instances: [instance(0, 'available')] }));
    expect(untracked.actions).toEqual([]);
    expect(untracked.status?.currentRevision).toBeUndefined();
  });

  it('numbers a new revision one above the highest recorded', () => {
    const result = plan({
      ...snapshot({ set: B_SET, instances: [instance(0, 'available', { revision: A })] }),
      revisions: [recorded(7)],
    });
    expect(
      ofType(result, 'RecordRevision').map((r) => [r.revision.metadata.name, r.revision.revision]),
    ).toEqual([[`${SET}-${B}`, 8]]);
  });

  it('prunes unused revisions beyond the limit, oldest first, and never one an instance runs', () => {
    const sets = [1, 2, 3, 4].map((v) =>
      makeSet({
        template: { metadata: { labels: { board: 'rpi4', virtual: 'true' }, annotations: { v: `${v}` } } },
      }),
    );
    const revisions = [recorded(1), ...sets.map((s, i) => recorded(i + 2, s))];
    const [oldest] = revisions;
    const set = { ...sets[3], spec: { ...sets[3].spec, revisionHistoryLimit: 1 } };
    const result = plan({
      ...snapshot({
        set,
        instances: [
          // The oldest revision still runs on a leased instance: kept whatever its age.
          instance(0, 'available', { revision: revisionOf(), leaseRef: 'l' }),
          instance(1, 'available', { revision: revisionOf(sets[3]) }),
        ],
        leases: [lease('l', { exporter: `${SET}-0` })],
      }),
      revisions,
    });
    // Unused: v1 (#2), v2 (#3), v3 (#4); the newest one is kept, the template's (#5) and the leased one's (#1) too.
    expect(ofType(result, 'DeleteRevision').map((d) => d.revisionName)).toEqual([
      revisions[2].metadata.name,
      revisions[1].metadata.name,
    ]);
    expect(ofType(result, 'DeleteRevision').map((d) => d.revisionName)).not.toContain(oldest.metadata.name);
  });

  it('keeps no unused revision with a limit of 0, but the template and the pinned ones', () => {
    const revisions = [recorded(1), recorded(2, B_SET)];
    const limitZero = (s: ExporterSet, pin?: string): ExporterSet => ({
      ...s,
      spec: { ...s.spec, revisionHistoryLimit: 0, ...(pin ? { pinnedRevision: pin } : {}) },
    });
    const unpinned = plan({
      ...snapshot({ set: limitZero(B_SET), instances: [instance(0, 'available', { revision: B })] }),
      revisions,
    });
    expect(ofType(unpinned, 'DeleteRevision').map((d) => d.revisionName)).toEqual([`${SET}-${A}`]);
    expect(unpinned.events).toContainEqual({
      type: 'Normal',
      reason: 'RevisionPruned',
      message: `deleted ControllerRevision ${SET}-${A}: no instance runs it and it is beyond spec.revisionHistoryLimit`,
    });
    const pinned = plan({
      ...snapshot({ set: limitZero(B_SET, A), instances: [instance(0, 'available', { revision: B })] }),
      revisions,
    });
    expect(ofType(pinned, 'DeleteRevision')).toEqual([]);
  });

  it('neither uses nor prunes a ControllerRevision the set does not control or whose data is not its revision', () => {
    const foreign: ControllerRevision = {
      ...recorded(1),
      metadata: { ...recorded(1).metadata, ownerReferences: [] },
    };
    const forged: ControllerRevision = {
      ...recorded(2, B_SET),
      data: { ...(recorded(2, B_SET).data as object), parameters: { arch: 'x86_64' } },
    };
    expect(recordedRevisions(makeSet(), [foreign, forged])).toEqual([]);
    const set = { ...makeSet(), spec: { ...makeSet().spec, revisionHistoryLimit: 0, pinnedRevision: B } };
    const result = plan({ ...snapshot({ set }), revisions: [foreign, forged] });
    expect(result.actions).toEqual([]);
    expect(conditionOf(result, ConditionTypes.RevisionPinned)?.reason).toBe(R.PinnedRevisionNotFound);
  });
});

describe('pinning', () => {
  const pinned = (pin: string, set: ExporterSet = B_SET): ExporterSet => ({
    ...set,
    spec: { ...set.spec, pinnedRevision: pin },
  });

  it.each([
    ['its name', `${SET}-${A}`],
    ['its hash', A],
  ])('by %s builds new instances from the recorded revision and rolls the others', (_what, pin) => {
    const result = plan({
      ...snapshot({
        set: pinned(pin, { ...B_SET, spec: { ...B_SET.spec, minAvailableReplicas: 2 } }),
        instances: [instance(0, 'available', { revision: B }), instance(1, 'available', { revision: B })],
      }),
      revisions: [recorded(1), recorded(2, B_SET)],
    });
    const creates = ofType(result, 'CreateExporter');
    expect(creates.map((c) => [c.reason, c.revision])).toEqual([['rollout', A]]);
    // Built from revision A's template: no annotation v of B's.
    expect(creates[0].exporter.metadata?.annotations?.v).toBeUndefined();
    expect(ofType(result, 'RecordRevision')).toEqual([]);
    expect(result.status?.templateRevision).toBe(A);
    expect(result.status?.currentRevision).toBe(`${SET}-${A}`);
    expect(result.status?.pinnedRevision).toBe(`${SET}-${A}`);
    expect(result.status?.updatedReplicas).toBe(0);
    expect(conditionOf(result, ConditionTypes.RevisionPinned)).toMatchObject({
      status: 'True',
      reason: R.PinnedRevisionFound,
    });
  });

  it('leaves a leased instance of another revision alone until its lease ends', () => {
    const result = plan({
      ...snapshot({
        set: pinned(A, { ...B_SET, spec: { ...B_SET.spec, recycleStrategy: 'InPlaceReuse' } }),
        instances: [instance(0, 'available', { revision: B }), instance(1, 'available', { revision: A })],
        leases: [lease('l', { exporter: `${SET}-0` })],
      }),
      revisions: [recorded(1), recorded(2, B_SET)],
    });
    expect(result.actions).toEqual([]);
  });

  it('to no recorded revision: RevisionPinned=False names the value and the fix, and no instance is touched', () => {
    const result = plan({
      ...snapshot({
        set: pinned('pool-0123456789', {
          ...B_SET,
          spec: { ...B_SET.spec, minAvailableReplicas: 3 },
          // The revision the pool was built from: kept while the pin finds nothing.
          status: makeSet({}, { status: { templateRevision: A } }).status,
        }),
        instances: [instance(0, 'available', { revision: A })],
      }),
      revisions: [recorded(1)],
    });
    expect(result.actions).toEqual([]);
    const found = conditionOf(result, ConditionTypes.RevisionPinned);
    expect(found).toMatchObject({ status: 'False', reason: R.PinnedRevisionNotFound });
    expect(found?.message).toBe(
      `spec.pinnedRevision "pool-0123456789" names no recorded revision of ExporterSet ${SET}, so no instance is changed; set it to the name or hash of one of the set's ControllerRevisions (kubectl get controllerrevisions -l exporterset.jumpstarter.dev/name=${SET}) or remove it to follow the template`,
    );
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'Warning', message: expect.stringContaining('"pool-0123456789"') }),
    );
    expect(result.status?.pinnedRevision).toBeUndefined();
    expect(result.status?.templateRevision).toBe(A);
  });

  it('to no recorded revision still reports invalid parameters of the class', () => {
    const result = plan({
      ...snapshot({
        set: pinned('pool-0123456789'),
        cls: makeClass({ parameters: { arch: 'aarch64', resources: { memory: 'lots' } } }),
      }),
      revisions: [recorded(1)],
    });
    expect(result.actions).toEqual([]);
    expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
      status: 'False',
      reason: R.InvalidParameters,
    });
  });

  it('unpinned again follows the template, and RevisionPinned turns False', () => {
    const before = plan({
      ...snapshot({ set: pinned(A), instances: [instance(0, 'available', { revision: A })] }),
      revisions: [recorded(1), recorded(2, B_SET)],
    });
    const set = { ...B_SET, spec: { ...B_SET.spec, minAvailableReplicas: 1 }, status: before.status };
    const result = plan({
      ...snapshot({ set, instances: [instance(0, 'available', { revision: A })] }),
      revisions: [recorded(1), recorded(2, B_SET)],
    });
    expect(ofType(result, 'CreateExporter').map((c) => c.revision)).toEqual([B]);
    expect(conditionOf(result, ConditionTypes.RevisionPinned)).toMatchObject({
      status: 'False',
      reason: R.NotPinned,
    });
    expect(result.status?.pinnedRevision).toBeUndefined();
  });

  it("sees the set and class as the revision recorded them: the view's revision is the recorded one", () => {
    const cls = makeClass({
      parameters: { arch: 'aarch64', memory: '1Gi' },
      images: { runtime: { image: 'qemu:1' } },
      scheduling: { nodeSelector: { zone: 'a' } },
    });
    const set = makeSet({ parameters: { memory: '2Gi' }, images: { exporter: { image: 'exporter:9' } } });
    const inputs = revisionInputs(set, cls);
    const later = makeClass({ parameters: { arch: 'x86_64' }, scheduling: { nodeSelector: { zone: 'b' } } });
    const view = pinnedView(makeSet(), later, JSON.parse(JSON.stringify(inputs)));
    expect(currentRevision(view.set, view.cls)).toBe(revisionOf(set, cls));
    expect(revisionInputs(view.set, view.cls)).toEqual(inputs);
    expect(view.cls.spec.provisioner).toBe(later.spec.provisioner);
  });

  it('rolls a whole pool back with the buffer kept, and never rewrites a recorded revision', () => {
    const spec = { minAvailableReplicas: 3 };
    let current: PlannerSnapshot = {
      ...snapshot({ set: makeSet(spec) }),
      revisions: [],
    };
    const run = (set: ExporterSet, passes: number): number => {
      current = { ...current, set: { ...set, status: current.set.status } };
      let minReady = Number.POSITIVE_INFINITY;
      for (let step = 0; step < passes; step++) {
        current = { ...current, now: current.now + 1_000 };
        current = bootAll(applyPlan(current, plan(current)));
        minReady = Math.min(minReady, plan(current).status?.availableReplicas ?? 0);
      }
      return minReady;
    };
    const labels = () => current.instances.map((i) => i.exporter.metadata?.labels?.[Labels.templateRevision]);
    run(makeSet(spec), 10);
    expect(labels()).toEqual([A, A, A]);
    const first = structuredClone(current.revisions);
    run({ ...B_SET, spec: { ...B_SET.spec, ...spec } }, 30);
    expect(labels()).toEqual([B, B, B]);
    expect(current.revisions?.map((r) => r.metadata.name)).toEqual([`${SET}-${A}`, `${SET}-${B}`]);
    const both = structuredClone(current.revisions);
    expect(both?.[0]).toEqual(first?.[0]);

    const minReady = run(pinned(A, { ...B_SET, spec: { ...B_SET.spec, ...spec } }), 30);
    expect(labels()).toEqual([A, A, A]);
    expect(minReady).toBeGreaterThanOrEqual(3);
    expect(current.revisions).toEqual(both);
    expect(current.now).toBeGreaterThan(T0);
  });
});

describe('revision history with creates in flight', () => {
  it('prunes nothing while a create the cache does not show yet may run a revision', () => {
    const set = { ...B_SET, spec: { ...B_SET.spec, revisionHistoryLimit: 0 } };
    const base = {
      ...snapshot({ set, instances: [instance(0, 'available', { revision: B })] }),
      revisions: [recorded(1), recorded(2, B_SET)],
    };
    expect(ofType(plan(base), 'DeleteRevision').map((d) => d.revisionName)).toEqual([`${SET}-${A}`]);
    const inFlight = plan({ ...base, inFlight: { creating: [{ name: `${SET}-9`, standby: false }] } });
    expect(ofType(inFlight, 'DeleteRevision')).toEqual([]);
  });
});
