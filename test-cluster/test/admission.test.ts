import { describe, expect, it } from '@jest/globals';
import { exporterSetCrd, leaseCrd, LeaseRuleMessages, RuleMessages } from 'virtual-exporters/internal';
import { CEL_SKIPPED_MESSAGE, compileCrd, crdAdmission } from '../src/admission';
import type { KubeObject } from '../src/types';

function exporterSet(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'pool', namespace: 'lab' },
    spec: {
      minReplicas: 1,
      maxReplicas: 3,
      virtualTargetClassName: 'qemu-rpi4',
      selector: { matchLabels: { board: 'rpi4' } },
      template: {
        metadata: { labels: { board: 'rpi4' } },
        spec: { drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }] },
      },
      ...spec,
    },
    ...extra,
  };
}

function lease(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'lab' },
    spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { board: 'rpi4' } }, ...spec },
  };
}

describe('crdAdmission (the test cluster admission of our CRDs)', () => {
  const sets = crdAdmission(exporterSetCrd);
  const leases = crdAdmission(leaseCrd);

  it('applies defaults and prunes unknown fields, leaving metadata and the input alone', () => {
    const input = exporterSet({ typo: true });
    const { object, causes } = sets.admit(input);
    expect(causes).toEqual([]);
    expect(object.spec).toMatchObject({ minAvailableReplicas: 0, recycleStrategy: 'ExitAndReplace' });
    expect(object.spec).not.toHaveProperty('typo');
    expect(object.metadata).toEqual(input.metadata);
    expect(input.spec).toHaveProperty('typo');
    expect(input.spec).not.toHaveProperty('recycleStrategy');
  });

  it('reports a CEL rule violation with the rule message verbatim, as Kubernetes renders it', () => {
    expect(sets.admit(exporterSet({ minReplicas: 4 })).causes).toEqual([
      {
        field: 'spec',
        message: `Invalid value: ${RuleMessages.minReplicasLeMax}`,
        reason: 'FieldValueInvalid',
      },
    ]);
  });

  it('reports schema violations with their Kubernetes cause types and words', () => {
    const { causes } = sets.admit(
      exporterSet({ maxReplicas: 'three', recycleStrategy: 'Sometimes', selector: undefined }),
    );
    expect(causes).toEqual([
      {
        field: 'spec.maxReplicas',
        message: 'Invalid value: "string": spec.maxReplicas in body must be of type integer: "string"',
        reason: 'FieldValueTypeInvalid',
      },
      {
        field: 'spec.recycleStrategy',
        message: 'Unsupported value: "Sometimes": supported values: "ExitAndReplace", "InPlaceReuse"',
        reason: 'FieldValueNotSupported',
      },
      { field: 'spec.selector', message: 'Required value', reason: 'FieldValueRequired' },
      // maxReplicas is the scale subresource's specReplicasPath, which must hold an int64.
      {
        field: '.spec.maxReplicas',
        message:
          'Invalid value: 0: .spec.maxReplicas accessor error: three is of the type string, expected int64',
        reason: 'FieldValueInvalid',
      },
      { field: '<nil>', message: `Invalid value: null: ${CEL_SKIPPED_MESSAGE}`, reason: 'FieldValueInvalid' },
    ]);
  });

  it('validates status as given: the store, not admission, isolates status', () => {
    const { causes } = sets.admit(exporterSet({}, { status: { replicas: 'many' } }));
    expect(causes.map((c) => c.field)).toContain('status.replicas');
  });

  it('runs the Lease transition rule only with an old object: tags are immutable after creation', () => {
    const created = lease({ tags: { team: 'bsp' } });
    expect(leases.admit(created).causes).toEqual([]);
    expect(leases.admit(lease({ tags: { team: 'kernel' } })).causes).toEqual([]);
    expect(leases.admit(lease({ tags: { team: 'kernel' } }), created).causes).toEqual([
      {
        field: 'spec',
        message: `Invalid value: ${LeaseRuleMessages.tagsImmutable}`,
        reason: 'FieldValueInvalid',
      },
    ]);
    expect(leases.admit(lease({ tags: { team: 'bsp' }, release: true }), created).causes).toEqual([]);
  });

  it('compiles each CRD once', () => {
    expect(compileCrd(exporterSetCrd)).toBe(compileCrd(exporterSetCrd));
    expect(compileCrd(structuredClone(exporterSetCrd))).not.toBe(compileCrd(exporterSetCrd));
  });
});

describe('compileCrd().review (the full result the library tests use)', () => {
  it('drops status on create and keeps the stored status on update when the CRD has a status subresource', () => {
    const review = compileCrd(leaseCrd);
    const withStatus = { ...lease({}), status: { ended: true } };
    expect(review.review(withStatus).object).not.toHaveProperty('status');
    const old = { ...lease({}), status: { ended: false } };
    expect(review.review(withStatus, { oldObject: old }).object.status).toEqual({ ended: false });
    expect(review.review(withStatus, { keepStatus: true }).object.status).toEqual({ ended: true });
  });

  it('reports the pruned paths', () => {
    expect(compileCrd(leaseCrd).review(lease({ extra: 1 })).pruned).toEqual(['spec.extra']);
  });
});
