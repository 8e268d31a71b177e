import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { runInNewContext } from 'node:vm';
import { RuleMessages } from '../../lib/api';
import type { ValidationIssue } from '../../lib/core/issue';
import { isPlainObject } from '../../lib/core/plain-object';
import { validateExporterSet } from '../../lib/core/validate-exporter-set';
import { allPaths, jepSet, loose, MALFORMED, replaceAt, type Loose } from './fixtures';

/** A rule: its name, a change that breaks it, the issues expected. */
type Rule = [string, (s: Loose) => void, ValidationIssue[]];

const DRIVERS = 'spec.template.spec.drivers';

/** Validates the JEP set after `change`. */
function validateChanged(change: (set: Loose) => void): ValidationIssue[] {
  const set = loose(jepSet());
  change(set);
  return validateExporterSet(set);
}

describe('ExporterSet validation', () => {
  it('accepts the JEP rpi4 pool, with and without driver names', () => {
    expect(validateExporterSet(jepSet())).toEqual([]);
    expect(
      validateChanged((s) => {
        s.spec.template.spec.drivers[0].name = 'power';
        s.spec.template.spec.drivers[1].name = 'tcp';
        s.spec.template.spec.drivers[2].name = 'serial';
      }),
    ).toEqual([]);
  });

  it('accepts the JEP on-demand Android and bare-metal SA8295 pools', () => {
    expect(
      validateExporterSet({
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterSet',
        metadata: { name: 'android-emulators', namespace: 'jumpstarter' },
        spec: {
          minReplicas: 0,
          maxReplicas: 10,
          minAvailableReplicas: 0,
          virtualTargetClassName: 'android-emulator',
          selector: { matchLabels: { platform: 'android', model: '34' } },
          template: {
            metadata: { labels: { platform: 'android', model: '34', virtual: 'true' } },
            spec: {
              drivers: [
                { type: 'jumpstarter_driver_android.driver.AdbDriver' },
                { type: 'jumpstarter_driver_power.driver.EmulatorPower' },
              ],
            },
          },
        },
      }),
    ).toEqual([]);
    expect(
      validateExporterSet({
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterSet',
        metadata: { name: 'qcom-sa8295-hifi', namespace: 'jumpstarter' },
        spec: {
          minReplicas: 0,
          maxReplicas: 4,
          minAvailableReplicas: 1,
          virtualTargetClassName: 'qcom-sa8295-baremetal',
          parameters: { board: { fidelity: 'high' } },
          selector: { matchLabels: { board: 'sa8295', fidelity: 'high', virtual: 'true' } },
          template: {
            metadata: { labels: { board: 'sa8295', fidelity: 'high', virtual: 'true' } },
            spec: { drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }] },
          },
        },
      }),
    ).toEqual([]);
  });

  it('accepts a minimal set that relies on every default', () => {
    expect(
      validateExporterSet({
        metadata: { name: 'minimal' },
        spec: { virtualTargetClassName: 'c', selector: {}, template: {} },
      }),
    ).toEqual([]);
  });

  describe('revisions', () => {
    it('accepts a pin by ControllerRevision name or by hash, and any history limit from 0', () => {
      for (const pin of ['pool-196065f4db', '196065f4db', 'a.b-c']) {
        expect(validateChanged((s) => (s.spec.pinnedRevision = pin))).toEqual([]);
      }
      expect(validateChanged((s) => (s.spec.revisionHistoryLimit = 0))).toEqual([]);
    });

    it('refuses a pin that is no DNS subdomain with the CRD rule message', () => {
      expect(validateChanged((s) => (s.spec.pinnedRevision = 'Pool 1'))).toEqual([
        { path: 'spec.pinnedRevision', value: 'Pool 1', message: RuleMessages.pinnedRevision },
      ]);
      expect(RuleMessages.pinnedRevision).toBe(
        'pinnedRevision must name a recorded revision: a ControllerRevision name or a revision hash, up to 253 lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
      );
    });

    it('refuses a pin that is too long or no string, and a negative or fractional history limit', () => {
      expect(validateChanged((s) => (s.spec.pinnedRevision = 'a'.repeat(254)))).toEqual([
        {
          path: 'spec.pinnedRevision',
          value: 'a'.repeat(254),
          message: 'must be at most 253 characters long',
        },
      ]);
      expect(validateChanged((s) => (s.spec.pinnedRevision = 7))).toEqual([
        { path: 'spec.pinnedRevision', value: 7, message: 'must be a string' },
      ]);
      expect(validateChanged((s) => (s.spec.revisionHistoryLimit = -1))).toEqual([
        { path: 'spec.revisionHistoryLimit', value: -1, message: 'must be greater than or equal to 0' },
      ]);
      expect(validateChanged((s) => (s.spec.revisionHistoryLimit = 1.5))).toEqual([
        { path: 'spec.revisionHistoryLimit', value: 1.5, message: 'must be a whole number' },
      ]);
    });
  });

  describe('replica counts', () => {
    it.each(['minReplicas', 'maxReplicas', 'minAvailableReplicas'])(
      'checks %s is a whole number ≥ 0 within int32',
      (field) => {
        const path = `spec.${field}`;
        expect(validateChanged((s) => (s.spec[field] = 1.5))).toEqual([
          { path, value: 1.5, message: 'must be a whole number' },
        ]);
        expect(validateChanged((s) => (s.spec[field] = '2'))).toEqual([
          { path, value: '2', message: 'must be a whole number' },
        ]);
        expect(validateChanged((s) => (s.spec[field] = -1))).toEqual([
          { path, value: -1, message: 'must be greater than or equal to 0' },
        ]);
        expect(validateChanged((s) => (s.spec[field] = 2 ** 31))).toEqual([
          { path, value: 2 ** 31, message: 'must be less than or equal to 2147483647' },
        ]);
      },
    );

    it('requires minReplicas ≤ maxReplicas with the upstream message', () => {
      expect(validateChanged((s) => (s.spec.minReplicas = 21))).toEqual([
        { path: 'spec.minReplicas', value: 21, message: RuleMessages.minReplicasLeMax },
      ]);
    });

    it('requires minAvailableReplicas ≤ maxReplicas with the upstream message', () => {
      expect(validateChanged((s) => (s.spec.minAvailableReplicas = 21))).toEqual([
        { path: 'spec.minAvailableReplicas', value: 21, message: RuleMessages.minAvailableLeMax },
      ]);
    });

    it('accepts equal bounds', () => {
      expect(
        validateChanged((s) => {
          s.spec.minReplicas = 20;
          s.spec.minAvailableReplicas = 20;
        }),
      ).toEqual([]);
    });

    it('applies no ceiling when maxReplicas is 0', () => {
      expect(
        validateChanged((s) => {
          s.spec.maxReplicas = 0;
          s.spec.minReplicas = 50;
          s.spec.minAvailableReplicas = 100;
        }),
      ).toEqual([]);
    });

    it('applies the CRD default maxReplicas 4 before the rules', () => {
      expect(
        validateChanged((s) => {
          delete s.spec.maxReplicas;
          s.spec.minReplicas = 5;
          s.spec.minAvailableReplicas = 4;
        }),
      ).toEqual([{ path: 'spec.minReplicas', value: 5, message: RuleMessages.minReplicasLeMax }]);
      expect(
        validateChanged((s) => {
          s.spec.maxReplicas = null;
          s.spec.minAvailableReplicas = 5;
        }),
      ).toEqual([{ path: 'spec.minAvailableReplicas', value: 5, message: RuleMessages.minAvailableLeMax }]);
    });

    it('skips the rules while maxReplicas is broken, as admission does', () => {
      expect(
        validateChanged((s) => {
          s.spec.maxReplicas = 'ten';
          s.spec.minReplicas = 5;
        }),
      ).toEqual([{ path: 'spec.maxReplicas', value: 'ten', message: 'must be a whole number' }]);
    });
  });

  it.each([
    [
      'scaleDownCooldown is a Go duration',
      (s) => (s.spec.scaleDownCooldown = '5 minutes'),
      [
        {
          path: 'spec.scaleDownCooldown',
          value: '5 minutes',
          message: RuleMessages.scaleDownCooldownDuration,
        },
      ],
    ],
    [
      'scaleDownCooldown is not a number',
      (s) => (s.spec.scaleDownCooldown = 300),
      [{ path: 'spec.scaleDownCooldown', value: 300, message: RuleMessages.scaleDownCooldownDuration }],
    ],
    [
      'scaleDownCooldown has no sign',
      (s) => (s.spec.scaleDownCooldown = '-5m'),
      [{ path: 'spec.scaleDownCooldown', value: '-5m', message: RuleMessages.scaleDownCooldownDuration }],
    ],
    [
      'recycleStrategy is one of the enum',
      (s) => (s.spec.recycleStrategy = 'Reuse'),
      [
        {
          path: 'spec.recycleStrategy',
          value: 'Reuse',
          message: 'must be one of ExitAndReplace, InPlaceReuse',
        },
      ],
    ],
    [
      'virtualTargetClassName is required',
      (s) => delete s.spec.virtualTargetClassName,
      [
        {
          path: 'spec.virtualTargetClassName',
          message:
            'is required: the VirtualTargetClass (in the same namespace) that provisions the instances',
        },
      ],
    ],
    [
      'virtualTargetClassName is not empty',
      (s) => (s.spec.virtualTargetClassName = ''),
      [{ path: 'spec.virtualTargetClassName', value: '', message: 'must not be empty' }],
    ],
    [
      'parameters are an object',
      (s) => (s.spec.parameters = [{ memory: '8Gi' }]),
      [{ path: 'spec.parameters', value: [{ memory: '8Gi' }], message: RuleMessages.parametersObject }],
    ],
    [
      'image pull policies are in the enum',
      (s) => (s.spec.images = { exporter: { imagePullPolicy: 'always' } }),
      [
        {
          path: 'spec.images.exporter.imagePullPolicy',
          value: 'always',
          message: 'must be one of Always, Never, IfNotPresent',
        },
      ],
    ],
    [
      'selector is required',
      (s) => delete s.spec.selector,
      [
        {
          path: 'spec.selector',
          message: 'is required: which Exporters belong to the set, usually the template labels',
        },
      ],
    ],
    [
      'selector operators are valid',
      (s) =>
        (s.spec.selector = { matchExpressions: [{ key: 'board', operator: 'Equals', values: ['rpi4'] }] }),
      [
        {
          path: 'spec.selector.matchExpressions[0].operator',
          value: 'Equals',
          message: RuleMessages.selectorOperator,
        },
      ],
    ],
    [
      'selector values follow the operator',
      (s) =>
        (s.spec.selector = { matchExpressions: [{ key: 'board', operator: 'Exists', values: ['rpi4'] }] }),
      [
        {
          path: 'spec.selector.matchExpressions[0].values',
          value: ['rpi4'],
          message: RuleMessages.selectorValues,
        },
      ],
    ],
    [
      'the selector selects the template labels',
      (s) => (s.spec.selector = { matchLabels: { board: 'rpi5' } }),
      [
        {
          path: 'spec.selector',
          value: { matchLabels: { board: 'rpi5' } },
          message: RuleMessages.selectorMatchesTemplate,
        },
      ],
    ],
    [
      'the selector selects a template without labels',
      (s) => delete s.spec.template.metadata,
      [
        {
          path: 'spec.selector',
          value: { matchLabels: { board: 'rpi4' } },
          message: RuleMessages.selectorMatchesTemplate,
        },
      ],
    ],
    [
      'template is required',
      (s) => delete s.spec.template,
      [{ path: 'spec.template', message: 'is required: the labels and drivers of every instance' }],
    ],
    [
      'template labels are valid labels',
      (s) => (s.spec.template.metadata.labels.virtual = 'yes please'),
      [
        {
          path: 'spec.template.metadata.labels[virtual]',
          value: 'yes please',
          message: expect.stringMatching(/^label value must be empty or consist/),
        },
      ],
    ],
    [
      'template annotations are strings',
      (s) => (s.spec.template.metadata.annotations = { note: 1 }),
      [
        {
          path: 'spec.template.metadata.annotations[note]',
          value: 1,
          message: 'annotation value must be a string',
        },
      ],
    ],
    [
      'drivers are a list',
      (s) => (s.spec.template.spec.drivers = { power: {} }),
      [{ path: DRIVERS, value: { power: {} }, message: 'must be a list' }],
    ],
    [
      'a driver is an object',
      (s) => (s.spec.template.spec.drivers[1] = 'jumpstarter_driver_network.driver.TcpNetwork'),
      [
        {
          path: `${DRIVERS}[1]`,
          value: 'jumpstarter_driver_network.driver.TcpNetwork',
          message: 'must be an object',
        },
      ],
    ],
    [
      'a driver has type or ref',
      (s) => (s.spec.template.spec.drivers[0] = { name: 'power' }),
      [{ path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeOrRef }],
    ],
    [
      'a driver has not both type and ref',
      (s) => (s.spec.template.spec.drivers[0].ref = 'qemu.power'),
      [{ path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeRefExclusive }],
    ],
    [
      'a ref driver has no config',
      (s) => (s.spec.template.spec.drivers[2] = { ref: 'qemu.console', config: { baud: 115200 } }),
      [{ path: `${DRIVERS}[2]`, message: RuleMessages.driverRefNoConfig }],
    ],
    [
      'a given driver name is not empty',
      (s) => (s.spec.template.spec.drivers[0].name = ''),
      [{ path: `${DRIVERS}[0].name`, value: '', message: RuleMessages.driverNameNotEmpty }],
    ],
    [
      'a driver name is a string',
      (s) => (s.spec.template.spec.drivers[0].name = 1),
      [{ path: `${DRIVERS}[0].name`, value: 1, message: 'must be a string' }],
    ],
    [
      'a driver type is not empty',
      (s) => (s.spec.template.spec.drivers[0].type = ''),
      [{ path: `${DRIVERS}[0].type`, value: '', message: 'must not be empty' }],
    ],
    [
      'a driver config is an object',
      (s) => (s.spec.template.spec.drivers[1].config = 'port=22'),
      [{ path: `${DRIVERS}[1].config`, value: 'port=22', message: 'must be an object' }],
    ],
    [
      'driver names are unique after derivation',
      (s) => s.spec.template.spec.drivers.push({ ref: 'qemu.power' }),
      [{ path: `${DRIVERS}[3]`, value: 'power', message: RuleMessages.driverNamesUnique }],
    ],
    [
      'given driver names are unique',
      (s) => {
        s.spec.template.spec.drivers[0].name = 'console';
        s.spec.template.spec.drivers[2].name = 'console';
      },
      [{ path: `${DRIVERS}[2]`, value: 'console', message: RuleMessages.driverNamesUnique }],
    ],
    [
      'a driver name can be derived',
      (s) => (s.spec.template.spec.drivers[0].type = 'jumpstarter_driver_.driver.Power'),
      [
        {
          path: `${DRIVERS}[0]`,
          message:
            'no driver name can be derived from jumpstarter_driver_.driver.Power; give the driver a name',
        },
      ],
    ],
    [
      'the set name fits in a label value',
      (s) => (s.metadata.name = 'a'.repeat(64)),
      [
        {
          path: 'metadata.name',
          value: 'a'.repeat(64),
          message: RuleMessages.exporterSetNameLength,
        },
      ],
    ],
    [
      'the set name is a DNS-1123 subdomain',
      (s) => (s.metadata.name = 'RPi4'),
      [
        {
          path: 'metadata.name',
          value: 'RPi4',
          message: expect.stringMatching(/^must be a lowercase DNS-1123 subdomain/),
        },
      ],
    ],
    [
      'kind is ExporterSet',
      (s) => (s.kind = 'ReplicaSet'),
      [{ path: 'kind', value: 'ReplicaSet', message: 'must be ExporterSet' }],
    ],
    [
      'spec is required',
      (s) => delete s.spec,
      [
        {
          path: 'spec',
          message: 'is required: a set needs a selector, a template and a virtualTargetClassName',
        },
      ],
    ],
  ] as Rule[])('checks that %s', (_rule, change, expected) => {
    expect(validateChanged(change)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['a..b', 'consecutive dots'],
    ['.a', 'a leading dot'],
    ['a.', 'a trailing dot'],
    ['', 'no segment'],
  ])('rejects the driver ref %p (%s)', (ref) => {
    expect(validateChanged((s) => (s.spec.template.spec.drivers[2] = { ref }))).toEqual([
      {
        path: `${DRIVERS}[2].ref`,
        value: ref,
        message:
          'must be a dot-separated path of non-empty segments naming a nested driver, e.g. power or board.power',
      },
    ]);
  });

  it('accepts a selector with expressions that select the template labels', () => {
    expect(
      validateChanged(
        (s) =>
          (s.spec.selector = {
            matchLabels: { virtual: 'true' },
            matchExpressions: [
              { key: 'board', operator: 'In', values: ['rpi4', 'rpi5'] },
              { key: 'fidelity', operator: 'DoesNotExist' },
            ],
          }),
      ),
    ).toEqual([]);
  });

  it('accepts a set cloned into another realm', () => {
    expect(validateExporterSet(structuredClone(jepSet()))).toEqual([]);
    expect(validateExporterSet(runInNewContext(`(${JSON.stringify(jepSet())})`))).toEqual([]);
  });

  it('reports a null list entry instead of skipping it', () => {
    expect(validateChanged((s) => (s.spec.template.spec.drivers[1] = null))).toEqual([
      { path: `${DRIVERS}[1]`, value: null, message: 'must be an object' },
    ]);
  });

  it('ignores map members whose value is undefined, as serialization drops them', () => {
    expect(
      validateChanged((s) => {
        s.spec.template.metadata.labels.extra = undefined;
        s.spec.template.metadata.annotations = { note: undefined };
        s.spec.selector.matchLabels.extra = undefined;
      }),
    ).toEqual([]);
  });

  it('does not check the selector against labels that are themselves invalid', () => {
    const issues = validateChanged((s) => {
      s.spec.template.metadata.labels = { 'bad key': 'x' };
    });
    expect(issues.map((i) => i.path)).toEqual(['spec.template.metadata.labels[bad key]']);
  });

  it('reports every broken rule at once', () => {
    const issues = validateChanged((s) => {
      s.spec.minReplicas = -1;
      s.spec.scaleDownCooldown = '5';
      s.spec.template.spec.drivers[0] = {};
      s.spec.selector.matchLabels.board = 'rpi5';
    });
    expect(issues.map((i) => i.message)).toEqual([
      'must be greater than or equal to 0',
      RuleMessages.scaleDownCooldownDuration,
      RuleMessages.driverTypeOrRef,
      RuleMessages.selectorMatchesTemplate,
    ]);
  });

  it.each(MALFORMED.filter((v) => !isPlainObject(v)))('reports a root of %p without throwing', (value) => {
    expect(validateExporterSet(value)).toEqual([
      { path: '', value, message: 'must be an ExporterSet object' },
    ]);
  });

  it('never throws with a malformed value in any position', () => {
    const valid = jepSet();
    loose(valid).spec.images = { exporter: { image: 'x', imagePullPolicy: 'Always' } };
    loose(valid).spec.selector.matchExpressions = [{ key: 'arch', operator: 'In', values: ['aarch64'] }];
    loose(valid).spec.template.metadata.annotations = { note: 'x' };
    loose(valid).spec.template.spec.drivers.push({ name: 'console', ref: 'qemu.console' });
    expect(validateExporterSet(valid)).toEqual([]);
    for (const path of allPaths(valid)) {
      for (const bad of MALFORMED) {
        const candidate = replaceAt(valid, path, bad);
        expect(() => validateExporterSet(candidate)).not.toThrow();
        expect(Array.isArray(validateExporterSet(candidate))).toBe(true);
      }
    }
  });

  it('never throws on arbitrary input in the spec, template or drivers', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(Array.isArray(validateExporterSet(value))).toBe(true);
        expect(Array.isArray(validateExporterSet({ metadata: value, spec: value }))).toBe(true);
        expect(
          Array.isArray(
            validateExporterSet({
              metadata: { name: 'x' },
              spec: { selector: value, template: { metadata: value, spec: { drivers: [value, value] } } },
            }),
          ),
        ).toBe(true);
      }),
    );
  });
});
