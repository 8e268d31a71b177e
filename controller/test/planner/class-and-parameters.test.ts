import { describe, expect, it } from '@jest/globals';
import { ConditionReasons, ConditionTypes } from 'virtual-exporters/internal';
import { plan } from '../../src/planner';
import { conditionOf, instance, lease, makeClass, makeSet, namesOf, ofType, snapshot } from './builders';

describe('§3.13 class and parameters', () => {
  it('reports a missing class as Available=False/VirtualTargetClassNotFound and changes nothing', () => {
    const result = plan(
      snapshot({ cls: null, set: makeSet({ minAvailableReplicas: 3 }), instances: [instance(0, 'exited')] }),
    );
    expect(result.actions).toEqual([]);
    expect(conditionOf(result, ConditionTypes.Available)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.VirtualTargetClassNotFound,
      message: 'VirtualTargetClass "qemu-rpi4" not found',
    });
    expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
      status: 'Unknown',
      message: expect.stringContaining(
        'VirtualTargetClass "qemu-rpi4" was not found in namespace "lab"; create it there or fix virtualTargetClassName',
      ),
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'Warning', reason: ConditionReasons.VirtualTargetClassNotFound }),
    );
  });

  it('recovers once the class exists', () => {
    const missing = plan(snapshot({ cls: null, set: makeSet({ minAvailableReplicas: 1 }) }));
    const found = plan(snapshot({ set: makeSet({ minAvailableReplicas: 1 }, { status: missing.status }) }));
    expect(conditionOf(found, ConditionTypes.Available)?.reason).toBe('NoReplicasRequired');
    expect(conditionOf(found, ConditionTypes.WarmBufferAvailable)?.reason).toBe('BelowMinimumAvailable');
    expect(ofType(found, 'CreateExporter')).toHaveLength(1);
  });

  it('ignores a set whose class belongs to another provisioner: no actions, no status', () => {
    const result = plan(
      snapshot({ cls: makeClass({ provisioner: 'ec2.jumpstarter.dev' }), set: makeSet({ minReplicas: 2 }) }),
    );
    expect(result.actions).toEqual([]);
    expect(result.status).toBeUndefined();
    expect(result.ignored).toContain('ec2.jumpstarter.dev');
  });

  it('reports invalid merged parameters with the provisioner message and creates nothing', () => {
    const set = makeSet({ minAvailableReplicas: 3, parameters: { arch: 'mips' } });
    const result = plan(snapshot({ set, instances: [instance(0, 'available')], leases: [lease('l')] }));
    expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
      status: 'False',
      reason: ConditionReasons.InvalidParameters,
      message:
        'spec.parameters.arch: must be one of "x86_64", "aarch64" (the guest architecture) (got "mips")',
    });
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(ofType(result, 'PromoteStandby')).toEqual([]);
    // The existing instance keeps serving: it is outdated (new parameters) but nothing replaces it.
    expect(ofType(result, 'DisableExporter')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });

  it('recovers when the parameters are fixed', () => {
    const result = plan(
      snapshot({ set: makeSet({ minAvailableReplicas: 1, parameters: { arch: 'x86_64' } }) }),
    );
    expect(conditionOf(result, ConditionTypes.ParametersValid)).toMatchObject({
      status: 'True',
      reason: ConditionReasons.ParametersValid,
    });
    expect(ofType(result, 'CreateExporter')).toHaveLength(1);
  });

  it('reports a selector that does not select the template labels and creates nothing', () => {
    const set = makeSet({ minReplicas: 2, selector: { matchLabels: { board: 'imx8' } } });
    const result = plan(snapshot({ set }));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    expect(conditionOf(result, ConditionTypes.SpecValid)).toMatchObject({
      status: 'False',
      reason: 'SelectorDoesNotMatchTemplate',
      message: expect.stringContaining('selector must match the template labels'),
    });
  });

  it('reports a selector key with an invalid prefix as that key and its rule, not as a template mismatch', () => {
    const labels = { 'Example_COM/board': 'rpi4' };
    const set = makeSet({
      minReplicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels: { ...labels } } },
    });
    const result = plan(snapshot({ set }));
    expect(ofType(result, 'CreateExporter')).toEqual([]);
    const specValid = conditionOf(result, ConditionTypes.SpecValid);
    expect(specValid).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(specValid?.message).toContain(
      'spec.selector.matchLabels[Example_COM/board]: label key must have a DNS-1123 subdomain before "/"',
    );
    expect(specValid?.message).not.toContain('selector must match the template labels');
  });

  it('reports a selector expression key with an invalid prefix by its path', () => {
    const set = makeSet({
      minReplicas: 1,
      selector: { matchExpressions: [{ key: '-lab.example/board', operator: 'Exists' }] },
    });
    const specValid = conditionOf(plan(snapshot({ set })), ConditionTypes.SpecValid);
    expect(specValid?.reason).toBe('InvalidSpec');
    expect(specValid?.message).toContain(
      'spec.selector.matchExpressions[0].key: label key must have a DNS-1123 subdomain',
    );
  });

  it('keeps serving existing instances while the selector is wrong', () => {
    const set = makeSet({ minAvailableReplicas: 1, selector: { matchLabels: { board: 'imx8' } } });
    const result = plan(snapshot({ set, instances: [instance(0, 'unrendered')] }));
    expect(namesOf(result, 'RenderInstance')).toEqual([]);
    expect(ofType(result, 'DeleteExporter')).toEqual([]);
  });
});
