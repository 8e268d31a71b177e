import { describe, expect, it } from '@jest/globals';
import { RuleMessages } from '../../lib/api/rules';
import { ExporterSetBounds } from '../../lib/core/bounds';
import { LeaseRuleMessages, exporterSetCrd, leaseCrd, virtualTargetClassCrd } from '../../lib/crds';
import { CEL_SKIPPED_MESSAGE, admit, type AdmissionError } from '../support/crd-validator';

type Spec = Record<string, unknown>;

/** A valid ExporterSet; each test changes one thing. */
function setWith(change: (spec: Spec) => void = () => {}) {
  const spec: Spec = {
    minReplicas: 1,
    maxReplicas: 3,
    minAvailableReplicas: 1,
    virtualTargetClassName: 'qemu-rpi4',
    selector: { matchLabels: { board: 'rpi4' } },
    template: {
      metadata: { labels: { board: 'rpi4', arch: 'aarch64' } },
      spec: {
        drivers: [
          { type: 'jumpstarter_driver_power.driver.QemuPower' },
          { name: 'tcp', type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { port: 22 } },
        ],
      },
    },
  };
  change(spec);
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'rpi4-virtual', namespace: 'lab' },
    spec,
  };
}

const drivers =
  (...list: Record<string, unknown>[]) =>
  (spec: Spec) => {
    spec.template = { ...(spec.template as Spec), spec: { drivers: list } };
  };
const selector = (sel: Record<string, unknown>) => (spec: Spec) => {
  spec.selector = sel;
};

const sorted = (errors: readonly AdmissionError[]) =>
  [...errors].sort((a, b) => `${a.path} ${a.message}`.localeCompare(`${b.path} ${b.message}`));

/** Exactly these errors, in any order. */
function expectErrors(errors: readonly AdmissionError[], expected: AdmissionError[]) {
  expect(sorted(errors)).toEqual(sorted(expected));
}

const DRIVERS = 'spec.template.spec.drivers';

describe('ExporterSet admission', () => {
  it('admits the base set used by these tests', () => {
    expect(admit(exporterSetCrd, setWith()).errors).toEqual([]);
  });

  describe('replica bounds', () => {
    it('rejects minReplicas above maxReplicas', () => {
      const { errors } = admit(
        exporterSetCrd,
        setWith((s) => Object.assign(s, { minReplicas: 5 })),
      );
      expectErrors(errors, [{ path: 'spec', message: RuleMessages.minReplicasLeMax }]);
    });

    it('rejects minAvailableReplicas above maxReplicas', () => {
      const { errors } = admit(
        exporterSetCrd,
        setWith((s) => Object.assign(s, { minAvailableReplicas: 4 })),
      );
      expectErrors(errors, [{ path: 'spec', message: RuleMessages.minAvailableLeMax }]);
    });

    it('allows any floor and buffer when maxReplicas is 0 (unbounded)', () => {
      const set = setWith((s) =>
        Object.assign(s, { maxReplicas: 0, minReplicas: 7, minAvailableReplicas: 9 }),
      );
      expect(admit(exporterSetCrd, set).errors).toEqual([]);
    });

    it('rejects a negative count with the schema minimum', () => {
      const { errors } = admit(
        exporterSetCrd,
        setWith((s) => Object.assign(s, { minReplicas: -1 })),
      );
      expectErrors(errors, [{ path: 'spec.minReplicas', message: 'must be >= 0' }]);
    });
  });

  describe('drivers', () => {
    it('rejects an entry with both type and ref', () => {
      const set = setWith(
        drivers({ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower', ref: 'a.b' }),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeRefExclusive },
      ]);
    });

    it('rejects an entry with neither type nor ref', () => {
      const set = setWith(drivers({ name: 'power' }));
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeOrRef },
      ]);
    });

    it('rejects a ref entry with config', () => {
      const set = setWith(
        drivers(
          { type: 'jumpstarter_driver_composite.driver.Composite' },
          { ref: 'composite.serial', config: {} },
        ),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: `${DRIVERS}[1]`, message: RuleMessages.driverRefNoConfig },
      ]);
    });

    it('rejects an empty name but accepts an omitted one', () => {
      const empty = setWith(drivers({ name: '', type: 'jumpstarter_driver_power.driver.QemuPower' }));
      expectErrors(admit(exporterSetCrd, empty).errors, [
        { path: `${DRIVERS}[0]`, message: RuleMessages.driverNameNotEmpty },
      ]);
      const omitted = setWith(drivers({ type: 'jumpstarter_driver_power.driver.QemuPower' }));
      expect(admit(exporterSetCrd, omitted).errors).toEqual([]);
    });

    it('rejects two drivers of one package without names (same derived name)', () => {
      const set = setWith(
        drivers(
          { type: 'jumpstarter_driver_power.driver.QemuPower' },
          { type: 'jumpstarter_driver_power.driver.MockPower' },
        ),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: DRIVERS, message: RuleMessages.driverNamesUnique },
      ]);
    });

    it('rejects a given name that equals a derived one', () => {
      const set = setWith(
        drivers(
          { name: 'power', type: 'jumpstarter_driver_network.driver.TcpNetwork' },
          { type: 'jumpstarter_driver_power.driver.QemuPower' },
        ),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: DRIVERS, message: RuleMessages.driverNamesUnique },
      ]);
    });

    it('rejects a ref whose last segment equals another name', () => {
      const set = setWith(
        drivers({ type: 'acme.drivers.Serial', name: 'serial' }, { ref: 'board.console.serial' }),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: DRIVERS, message: RuleMessages.driverNamesUnique },
      ]);
    });

    it('rejects duplicate given names', () => {
      const set = setWith(drivers({ name: 'a', type: 'x.A' }, { name: 'a', type: 'y.B' }));
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: DRIVERS, message: RuleMessages.driverNamesUnique },
      ]);
    });

    it('accepts drivers of one package when names tell them apart', () => {
      const set = setWith(
        drivers(
          { type: 'jumpstarter_driver_power.driver.QemuPower' },
          { name: 'power2', type: 'jumpstarter_driver_power.driver.MockPower' },
          { type: 'acme_power.Driver' },
          { ref: 'power2.child' },
        ),
      );
      expect(admit(exporterSetCrd, set).errors).toEqual([]);
    });

    it('finds a clash among as many drivers as the bound allows', () => {
      const many = Array.from({ length: ExporterSetBounds.drivers - 1 }, (_, i) => ({
        name: `d${i}`,
        type: 'x.Y',
      }));
      const set = setWith(drivers(...many, { ref: 'board.d0' }));
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: DRIVERS, message: RuleMessages.driverNamesUnique },
      ]);
    });

    it('rejects a ref with an empty segment (upstream pattern)', () => {
      const set = setWith(drivers({ ref: 'a..b' }));
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: `${DRIVERS}[0].ref`, message: 'must match pattern "^[^.]+([.][^.]+)*$"' },
      ]);
    });
  });

  describe('selector and template', () => {
    const mismatch = { path: 'spec.selector', message: RuleMessages.selectorMatchesTemplate };

    it('rejects matchLabels with a value the template does not have', () => {
      const set = setWith(selector({ matchLabels: { board: 'rpi5' } }));
      expectErrors(admit(exporterSetCrd, set).errors, [mismatch]);
    });

    it('rejects matchLabels with a key the template does not have', () => {
      const set = setWith(selector({ matchLabels: { board: 'rpi4', virtual: 'true' } }));
      expectErrors(admit(exporterSetCrd, set).errors, [mismatch]);
    });

    it('rejects a selector when the template has no labels at all', () => {
      const set = setWith((s) => {
        s.template = { spec: {} };
      });
      expectErrors(admit(exporterSetCrd, set).errors, [mismatch]);
    });

    it.each([
      ['In without the label value', { key: 'board', operator: 'In', values: ['rpi5', 'rpi3'] }],
      ['NotIn with the label value', { key: 'board', operator: 'NotIn', values: ['rpi4'] }],
      ['Exists on a missing label', { key: 'virtual', operator: 'Exists' }],
      ['DoesNotExist on a present label', { key: 'arch', operator: 'DoesNotExist' }],
    ])('rejects a match expression that fails on the template: %s', (_name, expression) => {
      const set = setWith(selector({ matchLabels: { board: 'rpi4' }, matchExpressions: [expression] }));
      expectErrors(admit(exporterSetCrd, set).errors, [mismatch]);
    });

    it('accepts match expressions that hold on the template', () => {
      const set = setWith(
        selector({
          matchExpressions: [
            { key: 'board', operator: 'In', values: ['rpi3', 'rpi4'] },
            { key: 'arch', operator: 'NotIn', values: ['x86_64'] },
            { key: 'os', operator: 'NotIn', values: ['android'] },
            { key: 'arch', operator: 'Exists' },
            { key: 'virtual', operator: 'DoesNotExist', values: [] },
          ],
        }),
      );
      expect(admit(exporterSetCrd, set).errors).toEqual([]);
    });

    it('rejects an unknown operator (once, not also as a mismatch)', () => {
      const set = setWith(
        selector({ matchExpressions: [{ key: 'board', operator: 'Equals', values: ['rpi4'] }] }),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorOperator },
      ]);
    });

    it('rejects In without values', () => {
      const set = setWith(selector({ matchExpressions: [{ key: 'board', operator: 'In', values: [] }] }));
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorValues },
        mismatch,
      ]);
    });

    it('rejects Exists with values', () => {
      const set = setWith(
        selector({ matchExpressions: [{ key: 'board', operator: 'Exists', values: ['rpi4'] }] }),
      );
      expectErrors(admit(exporterSetCrd, set).errors, [
        { path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorValues },
      ]);
    });
  });

  describe('scaleDownCooldown', () => {
    it.each(['5 minutes', '-5m', '5', '5M', 'm', '1h 30m', ''])('rejects %j', (value) => {
      const { errors } = admit(
        exporterSetCrd,
        setWith((s) => Object.assign(s, { scaleDownCooldown: value })),
      );
      expectErrors(errors, [
        { path: 'spec.scaleDownCooldown', message: RuleMessages.scaleDownCooldownDuration },
      ]);
    });

    it.each(['0', '30s', '5m', '1h30m', '1.5h', '.5s', '300ms', '10us', '10µs', '2h45m10s'])(
      'accepts %j',
      (value) => {
        const { errors } = admit(
          exporterSetCrd,
          setWith((s) => Object.assign(s, { scaleDownCooldown: value })),
        );
        expect(errors).toEqual([]);
      },
    );
  });

  describe('parameters', () => {
    it.each([
      ['a string', 'fast'],
      ['a list', [1, 2]],
      ['a number', 3],
    ])('rejects %s on an ExporterSet (schema type, before any CEL rule)', (_name, parameters) => {
      const { errors } = admit(
        exporterSetCrd,
        setWith((s) => Object.assign(s, { parameters })),
      );
      expectErrors(errors, [
        { path: 'spec.parameters', message: 'must be of type object' },
        { path: '', message: CEL_SKIPPED_MESSAGE },
      ]);
    });

    it('rejects a non-object on a VirtualTargetClass (a kind without CEL rules, so no note about them)', () => {
      const { errors } = admit(virtualTargetClassCrd, {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'VirtualTargetClass',
        metadata: { name: 'qemu' },
        spec: { provisioner: 'qemu.jumpstarter.dev', parameters: ['arch', 'x86_64'] },
      });
      expectErrors(errors, [{ path: 'spec.parameters', message: 'must be of type object' }]);
    });
  });

  describe('size bounds (they keep the rules cheap enough for the API server to accept the CRD)', () => {
    const B = ExporterSetBounds;
    const text = (n: number) => 'a'.repeat(n);
    const numbered = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const labels = (n: number) => Object.fromEntries(numbered(n, 'l').map((k) => [k, 'v']));
    const templateLabels = (l: Record<string, string>) => (spec: Spec) => {
      spec.template = { ...(spec.template as Spec), metadata: { labels: l } };
    };
    const both =
      (...changes: ((spec: Spec) => void)[]) =>
      (spec: Spec) => {
        for (const change of changes) change(spec);
      };
    const items = (n: number) => `must NOT have more than ${n} items`;
    const properties = (n: number) => `must NOT have more than ${n} properties`;
    const characters = (n: number) => `must NOT have more than ${n} characters`;

    /** What is bounded, the bound, a set with `n` of it, where the error is reported, and its message. */
    type Case = [string, number, (n: number) => (spec: Spec) => void, string, (n: number) => string];
    const cases: Case[] = [
      [
        'drivers',
        B.drivers,
        (n) =>
          drivers(
            ...numbered(n, 'd').map((name) => ({ name, type: 'jumpstarter_driver_power.driver.QemuPower' })),
          ),
        DRIVERS,
        items,
      ],
      [
        'characters in a driver name',
        B.driverName,
        (n) => drivers({ name: text(n), type: 'x.Y' }),
        `${DRIVERS}[0].name`,
        characters,
      ],
      [
        'characters in a driver type',
        B.driverType,
        (n) => drivers({ type: `jumpstarter_driver_power.${text(n - 'jumpstarter_driver_power.'.length)}` }),
        `${DRIVERS}[0].type`,
        characters,
      ],
      [
        'characters in a driver ref',
        B.driverRef,
        (n) => drivers({ ref: `board.${text(n - 6)}` }),
        `${DRIVERS}[0].ref`,
        characters,
      ],
      [
        'template labels',
        B.templateLabels,
        (n) => templateLabels({ board: 'rpi4', ...labels(n - 1) }),
        'spec.template.metadata.labels',
        properties,
      ],
      [
        'characters in a template label value',
        B.labelValue,
        (n) => templateLabels({ board: 'rpi4', note: text(n) }),
        'spec.template.metadata.labels.note',
        characters,
      ],
      [
        'selector matchLabels',
        B.selectorMatchLabels,
        (n) =>
          both(
            templateLabels({ board: 'rpi4', ...labels(B.templateLabels - 1) }),
            selector({ matchLabels: { board: 'rpi4', ...labels(n - 1) } }),
          ),
        'spec.selector.matchLabels',
        properties,
      ],
      [
        'characters in a selector label value',
        B.labelValue,
        (n) =>
          both(templateLabels({ board: text(B.labelValue) }), selector({ matchLabels: { board: text(n) } })),
        'spec.selector.matchLabels.board',
        characters,
      ],
      [
        'selector requirements',
        B.selectorMatchExpressions,
        (n) =>
          selector({ matchExpressions: numbered(n, 'k').map((key) => ({ key, operator: 'DoesNotExist' })) }),
        'spec.selector.matchExpressions',
        items,
      ],
      [
        'characters in a requirement key',
        B.selectorKey,
        (n) => selector({ matchExpressions: [{ key: text(n), operator: 'DoesNotExist' }] }),
        'spec.selector.matchExpressions[0].key',
        characters,
      ],
      [
        'values of a requirement',
        B.selectorValues,
        (n) =>
          selector({
            matchExpressions: [{ key: 'board', operator: 'In', values: ['rpi4', ...numbered(n - 1, 'v')] }],
          }),
        'spec.selector.matchExpressions[0].values',
        items,
      ],
      [
        'characters in a requirement value',
        B.labelValue,
        (n) => selector({ matchExpressions: [{ key: 'board', operator: 'NotIn', values: [text(n)] }] }),
        'spec.selector.matchExpressions[0].values[0]',
        characters,
      ],
      [
        'characters in scaleDownCooldown',
        B.scaleDownCooldown,
        // `1m1m...1s`: n characters of a duration in range (a 63-digit number would not be).
        (n) => (spec: Spec) =>
          Object.assign(spec, {
            scaleDownCooldown: `${'1m'.repeat(Math.floor(n / 2) - 1)}${n % 2 ? '10s' : '1s'}`,
          }),
        'spec.scaleDownCooldown',
        characters,
      ],
    ];

    it.each(cases.map(([what, bound, change]) => [`${bound} ${what}`, change(bound)] as const))(
      'admits %s',
      (_name, change) => {
        expect(admit(exporterSetCrd, setWith(change)).errors).toEqual([]);
      },
    );

    it.each(
      cases.map(
        ([what, bound, change, path, message]) =>
          [`${bound + 1} ${what}`, change(bound + 1), path, message(bound)] as const,
      ),
    )(
      'rejects %s with the schema error, and skips the CEL rules as the API server does',
      (_name, change, path, message) => {
        expectErrors(admit(exporterSetCrd, setWith(change)).errors, [
          { path, message },
          { path: '', message: CEL_SKIPPED_MESSAGE },
        ]);
      },
    );
  });
});

describe('VirtualTargetClass admission', () => {
  it('rejects an unknown binding mode with the supported values', () => {
    const { errors } = admit(virtualTargetClassCrd, {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: 'qemu' },
      spec: { provisioner: 'qemu.jumpstarter.dev', bindingMode: 'Lazy' },
    });
    expect(errors).toContainEqual({
      path: 'spec.bindingMode',
      message: 'Unsupported value: "Lazy": supported values: "Immediate", "WaitForFirstConsumer"',
    });
  });

  it('requires a provisioner', () => {
    const { errors } = admit(virtualTargetClassCrd, {
      apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
      kind: 'VirtualTargetClass',
      metadata: { name: 'qemu' },
      spec: {},
    });
    expectErrors(errors, [{ path: 'spec.provisioner', message: 'Required value' }]);
  });
});

describe('Lease admission', () => {
  const lease = (spec: Record<string, unknown>) => ({
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: 'lab' },
    spec: { clientRef: { name: 'ci' }, ...spec },
  });

  it('defaults the selector to {} and then requires a selector or an exporterRef', () => {
    const result = admit(leaseCrd, lease({}));
    expect((result.object.spec as Spec).selector).toEqual({});
    expectErrors(result.errors, [{ path: 'spec', message: LeaseRuleMessages.selectorOrExporterRef }]);
  });

  it('accepts a lease pinned to an exporter without a selector', () => {
    expect(admit(leaseCrd, lease({ exporterRef: { name: 'rpi4-virtual-0' } })).errors).toEqual([]);
  });

  it('rejects a context key longer than 32 characters', () => {
    const { errors } = admit(
      leaseCrd,
      lease({ selector: { matchLabels: { a: 'b' } }, context: { ['k'.repeat(33)]: 'v' } }),
    );
    expectErrors(errors, [{ path: 'spec', message: LeaseRuleMessages.contextSizes }]);
  });

  it('rejects a context value longer than 64 characters', () => {
    const { errors } = admit(
      leaseCrd,
      lease({ selector: { matchLabels: { a: 'b' } }, context: { build: 'x'.repeat(65) } }),
    );
    expectErrors(errors, [{ path: 'spec', message: LeaseRuleMessages.contextSizes }]);
  });

  it('rejects more than 8 context entries (and skips the rules, as for every broken bound)', () => {
    const context = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v']));
    const { errors } = admit(leaseCrd, lease({ selector: { matchLabels: { a: 'b' } }, context }));
    expectErrors(errors, [
      { path: 'spec.context', message: 'must NOT have more than 8 properties' },
      { path: '', message: CEL_SKIPPED_MESSAGE },
    ]);
  });

  describe('immutability on update (transition rules)', () => {
    const old = lease({
      selector: { matchLabels: { a: 'b' } },
      tags: { team: 'bsp' },
      context: { build: '42' },
    });

    it('does not run them on create', () => {
      expect(admit(leaseCrd, old).errors).toEqual([]);
    });

    it('accepts an update that keeps tags and context', () => {
      const updated = lease({
        selector: { matchLabels: { a: 'b' } },
        tags: { team: 'bsp' },
        context: { build: '42' },
        release: true,
      });
      expect(admit(leaseCrd, updated, { oldObject: old }).errors).toEqual([]);
    });

    it('rejects changed tags', () => {
      const updated = lease({
        selector: { matchLabels: { a: 'b' } },
        tags: { team: 'kernel' },
        context: { build: '42' },
      });
      expectErrors(admit(leaseCrd, updated, { oldObject: old }).errors, [
        { path: 'spec', message: LeaseRuleMessages.tagsImmutable },
      ]);
    });

    it('rejects changed context', () => {
      const updated = lease({
        selector: { matchLabels: { a: 'b' } },
        tags: { team: 'bsp' },
        context: { build: '43' },
      });
      expectErrors(admit(leaseCrd, updated, { oldObject: old }).errors, [
        { path: 'spec', message: LeaseRuleMessages.contextImmutable },
      ]);
    });

    it('allows adding tags to a lease that had none', () => {
      const before = lease({ selector: { matchLabels: { a: 'b' } } });
      const after = lease({ selector: { matchLabels: { a: 'b' } }, tags: { team: 'bsp' } });
      expect(admit(leaseCrd, after, { oldObject: before }).errors).toEqual([]);
    });
  });
});
