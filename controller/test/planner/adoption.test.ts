/**
 * Adoption (SPEC §3.16): a set's instances are the Exporters it controls, whatever their labels or
 * names, so instances upstream's controller made (`generateName`, the template labels only) are
 * counted, labelled, recycled, scaled down and drained like the controller's own.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, Labels } from 'virtual-exporters/internal';
import { plan, statusEquals, type InstanceSnapshot, type LabelInstanceAction } from '../../src/planner';
import { settle } from './applier';
import {
  SET,
  SET_UID,
  TEMPLATE_LABELS,
  adoptedInstance,
  at,
  instance,
  lease,
  makeSet,
  namesOf,
  ofType,
  revisionOf,
  snapshot,
} from './builders';

const current = revisionOf();
const due = { scaleDownWindowStart: at(-600_000), scaleDownTarget: 0 };

function withOwner(i: InstanceSnapshot, uid: string | undefined): InstanceSnapshot {
  return {
    ...i,
    exporter: {
      ...i.exporter,
      metadata: {
        ...i.exporter.metadata,
        ownerReferences:
          uid === undefined
            ? []
            : [{ apiVersion: API_VERSION, kind: 'ExporterSet', name: SET, uid, controller: true }],
      },
    },
  };
}

describe('§3.16 adoption › membership by ownership', () => {
  it('counts Exporters the set controls whatever their labels and names', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [adoptedInstance('x7k2p', 'available'), adoptedInstance('b9qzt', 'available')],
      }),
    );
    expect(result.status).toMatchObject({ replicas: 2, availableReplicas: 2 });
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });

  it('tells them apart by uid: one owned by an earlier set of the same name is detached and replaced', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [withOwner(adoptedInstance('x7k2p', 'available'), 'uid-of-an-earlier-pool')],
      }),
    );
    expect(result.status).toMatchObject({ replicas: 0 });
    expect(ofType(result, 'LabelInstance')).toEqual([]);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
  });

  it('keeps a labelled Exporter without the ownerReference detached: replaced, never labelled or deleted', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [instance(3, 'available', { detached: true })],
      }),
    );
    expect(ofType(result, 'LabelInstance')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-4']);
  });

  it('keeps an adopted Exporter disabled by hand: not a victim, not supply', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }, { status: due }),
        instances: [adoptedInstance('x7k2p', 'available', { enabled: false })],
      }),
    );
    expect(result.status).toMatchObject({ replicas: 1, availableReplicas: 0, exportersDisabled: 1 });
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
  });
});

describe('§3.16 adoption › labels', () => {
  it('adds the set label and the current revision to the Exporter, its Pod and its config Secret', () => {
    const result = plan(snapshot({ instances: [adoptedInstance('x7k2p', 'available')] }));
    expect(ofType(result, 'LabelInstance')).toEqual([
      {
        type: 'LabelInstance',
        name: 'pool-x7k2p',
        exporter: { [Labels.exporterSetName]: SET, [Labels.templateRevision]: current },
        // The Pod has the set label already (upstream's do): only the revision is missing.
        pod: { [Labels.templateRevision]: current },
        configSecret: { [Labels.exporterSetName]: SET },
      },
    ] satisfies LabelInstanceAction[]);
  });

  it('takes an instance without a revision as current: no rollout when controllers switch', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }),
        instances: [adoptedInstance('x7k2p', 'available'), adoptedInstance('b9qzt', 'available')],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('never rewrites a revision that is there: an outdated adopted instance is rolled out as usual', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [adoptedInstance('x7k2p', 'available', { revision: 'old' })],
      }),
    );
    const [label] = ofType(result, 'LabelInstance');
    expect(label.exporter).toEqual({ [Labels.exporterSetName]: SET });
    expect(label.pod).toEqual({ [Labels.templateRevision]: 'old' });
    expect(ofType(result, 'CreateExporter').map((c) => c.reason)).toEqual(['rollout']);
  });

  it('corrects a set label that names another set on an Exporter this set controls', () => {
    const moved = adoptedInstance('x7k2p', 'available', { revision: current });
    const wrong = {
      ...moved,
      exporter: {
        ...moved.exporter,
        metadata: {
          ...moved.exporter.metadata,
          labels: { ...moved.exporter.metadata?.labels, [Labels.exporterSetName]: 'elsewhere' },
        },
      },
    };
    const [label] = ofType(plan(snapshot({ instances: [wrong] })), 'LabelInstance');
    expect(label.exporter).toEqual({ [Labels.exporterSetName]: SET });
  });

  it('leaves a Pod or config Secret its Exporter does not own alone', () => {
    const adopted = adoptedInstance('x7k2p', 'available');
    const foreign = {
      ...adopted,
      pod: { ...adopted.pod, metadata: { ...adopted.pod!.metadata, ownerReferences: [] } },
      configSecret: { ...adopted.configSecret, metadata: { name: 'exporter-config-pool-x7k2p' } },
    };
    const [label] = ofType(plan(snapshot({ instances: [foreign] })), 'LabelInstance');
    expect(label).toEqual({
      type: 'LabelInstance',
      name: 'pool-x7k2p',
      exporter: { [Labels.exporterSetName]: SET, [Labels.templateRevision]: current },
    });
  });

  it('does not label instances on their way out, nor one whose labels are in flight', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 1 }),
        instances: [adoptedInstance('ended', 'exited'), adoptedInstance('x7k2p', 'available')],
        inFlight: { labelling: ['pool-x7k2p'] },
      }),
    );
    expect(ofType(result, 'LabelInstance')).toEqual([]);
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-ended']);
  });

  it('labels the Exporter of an InPlaceReuse instance whose Pod ended, not the Pod being replaced', () => {
    const result = plan(
      snapshot({
        set: makeSet({ recycleStrategy: 'InPlaceReuse' }),
        instances: [adoptedInstance('x7k2p', 'exited')],
        leases: [lease('done', { exporter: 'pool-x7k2p', ended: true })],
      }),
    );
    expect(namesOf(result, 'DeletePod')).toEqual(['pool-x7k2p']);
    const [label] = ofType(result, 'LabelInstance');
    expect(label.exporter).toEqual({ [Labels.exporterSetName]: SET, [Labels.templateRevision]: current });
    expect(label.pod).toBeUndefined();
  });

  it('labels a leased instance without touching it otherwise', () => {
    const result = plan(
      snapshot({
        instances: [adoptedInstance('x7k2p', 'available')],
        leases: [lease('held', { exporter: 'pool-x7k2p' })],
      }),
    );
    expect(result.actions.map((a) => a.type)).toEqual(['LabelInstance']);
  });

  it('is idempotent: once labelled, a settled adopted pool plans nothing and keeps its status', () => {
    const start = snapshot({
      set: makeSet({ minAvailableReplicas: 2 }),
      instances: [adoptedInstance('x7k2p', 'available'), adoptedInstance('b9qzt', 'available')],
    });
    const settled = settle(start);
    expect(settled.plans[0].actions.map((a) => a.type)).toEqual(['LabelInstance', 'LabelInstance']);
    const again = plan(settled.snapshot);
    expect(again.actions).toEqual([]);
    expect(statusEquals(again.status, settled.snapshot.set.status)).toBe(true);
    for (const i of settled.snapshot.instances) {
      expect(i.exporter.metadata?.labels).toEqual({
        ...TEMPLATE_LABELS,
        [Labels.exporterSetName]: SET,
        [Labels.templateRevision]: current,
      });
      expect(i.pod?.metadata?.labels).toMatchObject({
        [Labels.exporterSetName]: SET,
        [Labels.templateRevision]: current,
      });
      expect(i.configSecret?.metadata?.labels).toEqual({ [Labels.exporterSetName]: SET });
    }
  });
});

describe('§3.16 adoption › lifecycle like our own', () => {
  it('recycles an adopted instance whose Pod ended after its lease, and refills', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 2 }),
        instances: [adoptedInstance('ended', 'exited'), adoptedInstance('x7k2p', 'available')],
        leases: [lease('done', { exporter: 'pool-ended', ended: true })],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toMatchObject([{ name: 'pool-ended', reason: 'recycle' }]);
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-0']);
  });

  it('counts an adopted Pod that failed before its exporter was ready as a startup failure', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minReplicas: 1 }),
        instances: [adoptedInstance('x7k2p', 'failed')],
      }),
    );
    expect(ofType(result, 'DeleteExporter')).toMatchObject([{ name: 'pool-x7k2p', reason: 'failed' }]);
    expect(result.status?.startupFailures).toBe(1);
  });

  it('scales down adopted idle instances after the cooldown, never the leased one', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 0 }, { status: due }),
        instances: [
          adoptedInstance('aaaaa', 'available'),
          adoptedInstance('bbbbb', 'available'),
          adoptedInstance('ccccc', 'available'),
        ],
        leases: [lease('held', { exporter: 'pool-aaaaa' })],
      }),
    );
    expect(namesOf(result, 'DisableExporter')).toEqual(['pool-bbbbb', 'pool-ccccc']);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('never counts beyond maxReplicas with adopted instances: none created on top', () => {
    const result = plan(
      snapshot({
        set: makeSet({ maxReplicas: 2, minAvailableReplicas: 2 }),
        instances: [adoptedInstance('x7k2p', 'available'), adoptedInstance('b9qzt', 'starting')],
        leases: [lease('held', { exporter: 'pool-x7k2p' })],
      }),
    );
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(result.status?.replicas).toBe(2);
  });

  it('drains adopted instances on deletion: unleased ones go, the leased one stays', () => {
    const result = plan(
      snapshot({
        set: makeSet({}, { deleting: true }),
        instances: [adoptedInstance('x7k2p', 'available'), adoptedInstance('b9qzt', 'standby')],
        leases: [lease('held', { exporter: 'pool-x7k2p' })],
      }),
    );
    expect(namesOf(result, 'DeleteExporter')).toEqual(['pool-b9qzt']);
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'RemoveFinalizer')).toEqual([]);
    expect(ofType(result, 'LabelInstance')).toEqual([]);
  });
});

describe('§3.16 adoption › names from generateName', () => {
  it('a suffix with letters has no ordinal and moves nothing', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }, { status: { nextOrdinal: 3 } }),
        instances: [adoptedInstance('x7k2p', 'available')],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-3']);
    expect(result.status?.nextOrdinal).toBe(4);
  });

  it('an all-digit suffix moves nextOrdinal past it, so that name is never issued', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }, { status: { nextOrdinal: 3 } }),
        instances: [adoptedInstance('24567', 'available')],
      }),
    );
    expect(namesOf(result, 'CreateExporter')).toEqual(['pool-24568']);
    expect(result.status?.nextOrdinal).toBe(24569);
  });

  it('a digit suffix beyond any ordinal ever issued neither moves the counter nor breaks it', () => {
    const result = plan(
      snapshot({
        set: makeSet({ minAvailableReplicas: 2 }, { status: { nextOrdinal: 3 } }),
        instances: [
          adoptedInstance('99999999999999999999', 'available'),
          adoptedInstance('9007199254740993', 'available'),
        ],
      }),
    );
    expect(result.status?.replicas).toBe(2);
    expect(result.status?.nextOrdinal).toBe(3);
    expect(ofType(result, 'CreateExporter')).toEqual([]);
  });
});

describe('§3.16 adoption › ownership reference', () => {
  it('matches the set by uid when both have one', () => {
    const theirs = withOwner(adoptedInstance('x7k2p', 'available'), SET_UID);
    expect(plan(snapshot({ instances: [theirs] })).status?.replicas).toBe(1);
  });
});
