/**
 * The good and bad objects of our CRD and CEL tests, in one table the three judges read:
 *
 * - the test cluster's admission (test/crds/rejection.test.ts, through test/support/crd-validator),
 *   which must say exactly `errors`;
 * - synth-time validation in lib/ (test/core/agreement.test.ts), which must refuse what `synth` says
 *   with the same rule message;
 * - a real kube-apiserver (test/admission/real-server.kube.test.ts), whose verdict and fields must be
 *   the test cluster's.
 *
 * Every case is one object (a create), or an object and the stored one it replaces (an update). Each
 * starts from a valid object, so the one change is what is judged.
 */
import { RuleMessages } from '../../lib/api/rules';
import { ExporterSetBounds } from '../../lib/core/bounds';
import { RECYCLE_REQUESTED_AT_MESSAGE } from '../../lib/core/pool-operations';
import {
  LeaseRuleMessages,
  exporterOperationCrd,
  exporterSetCrd,
  leaseCrd,
  virtualTargetClassCrd,
} from '../../lib/crds';
import { CEL_SKIPPED_MESSAGE, admit, type AdmissionError } from '../support/crd-validator';

type Json = Record<string, any>;
type Spec = Record<string, any>;

/**
 * What synth-time validation says of a case: it refuses it with an issue of this message (equal, or
 * matching), at this path when one is given.
 */
export interface SynthVerdict {
  readonly path?: string;
  readonly message: string | RegExp;
  /**
   * Why synth time refuses an object the API server admits (`errors` is `[]`): where synth time is
   * stricter than the CRD on purpose. Absent: synth time refuses what admission refuses, no more.
   */
  readonly stricterThanTheCrd?: string;
}

export interface AdmissionCase {
  /** The group of cases (a describe block). */
  readonly group: string;
  /** What the case checks (a test name), unique within its group. */
  readonly name: string;
  /** The object written: created, or replacing `oldObject`. */
  readonly object: Json;
  /** For an update: the stored object (created first). */
  readonly oldObject?: Json;
  /** What admission says: `[]` admits; otherwise exactly these errors, in any order. */
  readonly errors: readonly AdmissionError[];
  /** What synth-time validation says (ExporterSets and classes), where a test pins it. */
  readonly synth?: SynthVerdict;
}

export const NS = 'lab';
/** The pattern of a Kubernetes quantity in our CRDs' schema (resources of the class's scheduling). */
const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
export const DRIVERS = 'spec.template.spec.drivers';

// ---- objects ----

/** The ExporterSet of the admission tests; `change` edits its spec. */
export function setWith(change: (spec: Spec) => void = () => {}): Json {
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
    metadata: { name: 'rpi4-virtual', namespace: NS },
    spec,
  };
}

/** The ExporterSet of the synth-time agreement tests (one unnamed driver, a cooldown). */
export function agreementSetWith(change: (spec: Spec) => void = () => {}): Json {
  const spec: Spec = {
    minReplicas: 1,
    maxReplicas: 3,
    minAvailableReplicas: 1,
    scaleDownCooldown: '5m',
    virtualTargetClassName: 'qemu-rpi4',
    selector: { matchLabels: { board: 'rpi4' } },
    template: {
      metadata: { labels: { board: 'rpi4', arch: 'aarch64' } },
      spec: { drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }] },
    },
  };
  change(spec);
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'p', namespace: NS },
    spec,
  };
}

export function classWith(spec: Spec): Json {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'qemu', namespace: NS },
    spec,
  };
}

export function lease(spec: Spec): Json {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l', namespace: NS },
    spec: { clientRef: { name: 'ci' }, ...spec },
  };
}

// ---- spec changes ----

const drivers =
  (...list: Json[]) =>
  (spec: Spec) => {
    spec.template = { ...spec.template, spec: { drivers: list } };
  };
const selector = (sel: Json) => (spec: Spec) => {
  spec.selector = sel;
};
const set = (fields: Spec) => (spec: Spec) => void Object.assign(spec, fields);
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

// ---- the table ----

const cases: AdmissionCase[] = [];
let group = '';
const add = (
  name: string,
  object: Json,
  errors: readonly AdmissionError[],
  extra: Partial<AdmissionCase> = {},
) => void cases.push({ group, name, object, errors, ...extra });

// ExporterSet (test/crds/rejection.test.ts)
group = 'ExporterSet admission';
add('admits the base set used by these tests', setWith(), []);

group = 'ExporterSet admission › replica bounds';
add('rejects minReplicas above maxReplicas', setWith(set({ minReplicas: 5 })), [
  { path: 'spec', message: RuleMessages.minReplicasLeMax },
]);
add('rejects minAvailableReplicas above maxReplicas', setWith(set({ minAvailableReplicas: 4 })), [
  { path: 'spec', message: RuleMessages.minAvailableLeMax },
]);
add(
  'allows any floor and buffer when maxReplicas is 0 (unbounded)',
  setWith(set({ maxReplicas: 0, minReplicas: 7, minAvailableReplicas: 9 })),
  [],
);
add('rejects a negative count with the schema minimum', setWith(set({ minReplicas: -1 })), [
  { path: 'spec.minReplicas', message: 'spec.minReplicas in body should be greater than or equal to 0' },
]);

group = 'ExporterSet admission › drivers';
add(
  'rejects an entry with both type and ref',
  setWith(drivers({ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower', ref: 'a.b' })),
  [{ path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeRefExclusive }],
);
add('rejects an entry with neither type nor ref', setWith(drivers({ name: 'power' })), [
  { path: `${DRIVERS}[0]`, message: RuleMessages.driverTypeOrRef },
]);
add(
  'rejects a ref entry with config',
  setWith(
    drivers(
      { type: 'jumpstarter_driver_composite.driver.Composite' },
      { ref: 'composite.serial', config: {} },
    ),
  ),
  [{ path: `${DRIVERS}[1]`, message: RuleMessages.driverRefNoConfig }],
);
add(
  'rejects an empty name',
  setWith(drivers({ name: '', type: 'jumpstarter_driver_power.driver.QemuPower' })),
  [{ path: `${DRIVERS}[0]`, message: RuleMessages.driverNameNotEmpty }],
);
add('accepts an omitted name', setWith(drivers({ type: 'jumpstarter_driver_power.driver.QemuPower' })), []);
add(
  'rejects two drivers of one package without names (same derived name)',
  setWith(
    drivers(
      { type: 'jumpstarter_driver_power.driver.QemuPower' },
      { type: 'jumpstarter_driver_power.driver.MockPower' },
    ),
  ),
  [{ path: DRIVERS, message: RuleMessages.driverNamesUnique }],
);
add(
  'rejects a given name that equals a derived one',
  setWith(
    drivers(
      { name: 'power', type: 'jumpstarter_driver_network.driver.TcpNetwork' },
      { type: 'jumpstarter_driver_power.driver.QemuPower' },
    ),
  ),
  [{ path: DRIVERS, message: RuleMessages.driverNamesUnique }],
);
add(
  'rejects a ref whose last segment equals another name',
  setWith(drivers({ type: 'acme.drivers.Serial', name: 'serial' }, { ref: 'board.console.serial' })),
  [{ path: DRIVERS, message: RuleMessages.driverNamesUnique }],
);
add(
  'rejects duplicate given names',
  setWith(drivers({ name: 'a', type: 'x.A' }, { name: 'a', type: 'y.B' })),
  [{ path: DRIVERS, message: RuleMessages.driverNamesUnique }],
);
add(
  'accepts drivers of one package when names tell them apart',
  setWith(
    drivers(
      { type: 'jumpstarter_driver_power.driver.QemuPower' },
      { name: 'power2', type: 'jumpstarter_driver_power.driver.MockPower' },
      { type: 'acme_power.Driver' },
      { ref: 'power2.child' },
    ),
  ),
  [],
);
add(
  'finds a clash among as many drivers as the bound allows',
  setWith(
    drivers(...many(ExporterSetBounds.drivers - 1, (i) => ({ name: `d${i}`, type: 'x.Y' })), {
      ref: 'board.d0',
    }),
  ),
  [{ path: DRIVERS, message: RuleMessages.driverNamesUnique }],
);
add('rejects a ref with an empty segment (upstream pattern)', setWith(drivers({ ref: 'a..b' })), [
  { path: `${DRIVERS}[0].ref`, message: `${DRIVERS}[0].ref in body should match '^[^.]+([.][^.]+)*$'` },
]);

group = 'ExporterSet admission › selector and template';
const mismatch = { path: 'spec.selector', message: RuleMessages.selectorMatchesTemplate };
add(
  'rejects matchLabels with a value the template does not have',
  setWith(selector({ matchLabels: { board: 'rpi5' } })),
  [mismatch],
);
add(
  'rejects matchLabels with a key the template does not have',
  setWith(selector({ matchLabels: { board: 'rpi4', virtual: 'true' } })),
  [mismatch],
);
add(
  'rejects a selector when the template has no labels at all',
  setWith((s) => {
    s.template = { spec: {} };
  }),
  [mismatch],
);
for (const [name, expression] of [
  ['In without the label value', { key: 'board', operator: 'In', values: ['rpi5', 'rpi3'] }],
  ['NotIn with the label value', { key: 'board', operator: 'NotIn', values: ['rpi4'] }],
  ['Exists on a missing label', { key: 'virtual', operator: 'Exists' }],
  ['DoesNotExist on a present label', { key: 'arch', operator: 'DoesNotExist' }],
] as const) {
  add(
    `rejects a match expression that fails on the template: ${name}`,
    setWith(selector({ matchLabels: { board: 'rpi4' }, matchExpressions: [expression] })),
    [mismatch],
  );
}
add(
  'accepts match expressions that hold on the template',
  setWith(
    selector({
      matchExpressions: [
        { key: 'board', operator: 'In', values: ['rpi3', 'rpi4'] },
        { key: 'arch', operator: 'NotIn', values: ['x86_64'] },
        { key: 'os', operator: 'NotIn', values: ['android'] },
        { key: 'arch', operator: 'Exists' },
        { key: 'virtual', operator: 'DoesNotExist', values: [] },
      ],
    }),
  ),
  [],
);
add(
  'rejects an unknown operator (once, not also as a mismatch)',
  setWith(selector({ matchExpressions: [{ key: 'board', operator: 'Equals', values: ['rpi4'] }] })),
  [{ path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorOperator }],
);
add(
  'rejects In without values',
  setWith(selector({ matchExpressions: [{ key: 'board', operator: 'In', values: [] }] })),
  [{ path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorValues }, mismatch],
);
add(
  'rejects Exists with values',
  setWith(selector({ matchExpressions: [{ key: 'board', operator: 'Exists', values: ['rpi4'] }] })),
  [{ path: 'spec.selector.matchExpressions[0]', message: RuleMessages.selectorValues }],
);

group = 'ExporterSet admission › scaleDownCooldown';
for (const value of ['5 minutes', '-5m', '5', '5M', 'm', '1h 30m', '']) {
  add(`rejects ${JSON.stringify(value)}`, setWith(set({ scaleDownCooldown: value })), [
    { path: 'spec.scaleDownCooldown', message: RuleMessages.scaleDownCooldownDuration },
  ]);
}
for (const value of ['0', '30s', '5m', '1h30m', '1.5h', '.5s', '300ms', '10us', '10µs', '2h45m10s']) {
  add(`accepts ${JSON.stringify(value)}`, setWith(set({ scaleDownCooldown: value })), []);
}

group = 'ExporterSet admission › parameters';
/** The type error of a parameters that is not an object: it names the type the API server decoded. */
const notAnObject = (decoded: string) => ({
  path: 'spec.parameters',
  message: `spec.parameters in body must be of type object: "${decoded}"`,
});
for (const [name, parameters, decoded] of [
  ['a string', 'fast', 'string'],
  ['a list', [1, 2], 'array'],
  ['a number', 3, 'integer'],
] as const) {
  add(`rejects ${name} on an ExporterSet (schema type, before any CEL rule)`, setWith(set({ parameters })), [
    notAnObject(decoded),
    { path: '', message: CEL_SKIPPED_MESSAGE },
  ]);
}
add(
  'rejects a non-object on a VirtualTargetClass (a kind without CEL rules, so no note about them)',
  classWith({ provisioner: 'qemu.jumpstarter.dev', parameters: ['arch', 'x86_64'] }),
  [notAnObject('array')],
);

group =
  'ExporterSet admission › size bounds (they keep the rules cheap enough for the API server to accept the CRD)';
{
  const B = ExporterSetBounds;
  const text = (n: number) => 'a'.repeat(n);
  const numbered = (n: number, prefix: string) => many(n, (i) => `${prefix}${i}`);
  const labels = (n: number) => Object.fromEntries(numbered(n, 'l').map((k) => [k, 'v']));
  const templateLabels = (l: Record<string, string>) => (spec: Spec) => {
    spec.template = { ...spec.template, metadata: { labels: l } };
  };
  const both =
    (...changes: ((spec: Spec) => void)[]) =>
    (spec: Spec) => {
      for (const change of changes) change(spec);
    };
  // Too many items or properties (the count, then the bound), or too long a string (bytes, as the API
  // server says, though it counts characters).
  const items = (n: number) => `Too many: ${n + 1}: must have at most ${n} items`;
  const properties = items;
  const characters = (n: number) => `Too long: may not be more than ${n} bytes`;

  /** What is bounded, the bound, a set with `n` of it, where the error is reported, and its message at bound + 1. */
  type Bounded = [string, number, (n: number) => (spec: Spec) => void, string, (n: number) => string];
  const bounded: Bounded[] = [
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
      (n) => set({ scaleDownCooldown: `${'1m'.repeat(Math.floor(n / 2) - 1)}${n % 2 ? '10s' : '1s'}` }),
      'spec.scaleDownCooldown',
      characters,
    ],
  ];
  for (const [what, bound, change, path] of bounded) {
    // A selector key may be as long as a label key's prefix, "/" and name together; synth time also
    // checks it is one (a name part of at most 63 characters). The CRD keeps upstream's acceptance.
    const synth: SynthVerdict | undefined =
      what === 'characters in a requirement key'
        ? {
            path,
            message: 'label key must have a name part of at most 63 characters',
            stricterThanTheCrd:
              'a selector key must be a label key for the selector to select anything; the CRD accepts all upstream accepts',
          }
        : undefined;
    add(`admits ${bound} ${what}`, setWith(change(bound)), [], synth ? { synth } : {});
  }
  for (const [what, bound, change, path, message] of bounded) {
    add(
      `rejects ${bound + 1} ${what} with the schema error, and skips the CEL rules as the API server does`,
      setWith(change(bound + 1)),
      [
        { path, message: message(bound) },
        { path: '', message: CEL_SKIPPED_MESSAGE },
      ],
    );
  }
}

group = 'ExporterSet admission › values as the API server decodes and checks them';
{
  const at = 'spec.recycleRequestedAt';
  const notADateTime = (text: string): AdmissionError[] => [
    { path: at, message: `${at} in body must be of type date-time: "${text}"` },
    { path: '', message: CEL_SKIPPED_MESSAGE },
  ];
  for (const text of ['2026-11-26T18:00:00,5Z', '2026-11-26T18:00:00+99:00']) {
    add(
      `accepts recycleRequestedAt ${JSON.stringify(text)}, which synth time refuses`,
      setWith(set({ recycleRequestedAt: text })),
      [],
      {
        synth: {
          path: at,
          message: RECYCLE_REQUESTED_AT_MESSAGE,
          stricterThanTheCrd: 'the controller reads the time with Date.parse, which cannot read this one',
        },
      },
    );
  }
  for (const text of ['2026-11-26T18:00:00Z', '2026-11-26t18:00:00z', '2026-11-26T18:00:00.123+01:00']) {
    add(`accepts recycleRequestedAt ${JSON.stringify(text)}`, setWith(set({ recycleRequestedAt: text })), []);
  }
  for (const text of [
    '2026-11-26 18:00:00Z',
    '2026-11-26T18:00:00+0100',
    '2026-11-26T18:00Z',
    '2026-02-30T18:00:00Z',
    '2026-11-26T24:00:00Z',
    '2026-11-26T23:59:60Z',
  ]) {
    add(
      `rejects recycleRequestedAt ${JSON.stringify(text)} as no date-time`,
      setWith(set({ recycleRequestedAt: text })),
      notADateTime(text),
      { synth: { path: at, message: RECYCLE_REQUESTED_AT_MESSAGE } },
    );
  }
  add(
    'defaults a null count (a null in a field that is not nullable)',
    setWith(set({ minReplicas: null })),
    [],
  );
  add('drops a null object (a null in a field that is not nullable)', setWith(set({ parameters: null })), []);
  add(
    'accepts a count written as a float with no fraction (1.0 is sent as 1)',
    setWith(set({ maxReplicas: 3.0 })),
    [],
  );
  add('rejects an int-or-string that is a boolean', setWith(set({ updateStrategy: { maxSurge: true } })), [
    {
      path: 'spec.updateStrategy.maxSurge',
      message: 'spec.updateStrategy.maxSurge in body must be of type integer,string: "boolean"',
    },
    { path: '', message: CEL_SKIPPED_MESSAGE },
  ]);
}

// VirtualTargetClass and Lease (test/crds/rejection.test.ts)
group = 'VirtualTargetClass admission';
add(
  'rejects an unknown binding mode with the supported values',
  classWith({ provisioner: 'qemu.jumpstarter.dev', bindingMode: 'Lazy' }),
  [
    {
      path: 'spec.bindingMode',
      message: 'Unsupported value: "Lazy": supported values: "Immediate", "WaitForFirstConsumer"',
    },
  ],
);
add('requires a provisioner', classWith({}), [{ path: 'spec.provisioner', message: 'Required value' }]);
add(
  'rejects a resource quantity that is a boolean',
  classWith({ provisioner: 'qemu.jumpstarter.dev', scheduling: { resources: { limits: { cpu: true } } } }),
  [
    {
      path: 'spec.scheduling.resources.limits.cpu',
      message: 'spec.scheduling.resources.limits.cpu in body must be of type integer,string: "boolean"',
    },
    { path: '', message: '"spec.scheduling.resources.limits.cpu" must validate at least one schema (anyOf)' },
    {
      path: 'spec.scheduling.resources.limits.cpu',
      message: 'spec.scheduling.resources.limits.cpu in body must be of type integer: "boolean"',
    },
  ],
);
add(
  'rejects a resource quantity in words',
  classWith({
    provisioner: 'qemu.jumpstarter.dev',
    scheduling: { resources: { limits: { memory: '4 GB' } } },
  }),
  [
    {
      path: 'spec.scheduling.resources.limits.memory',
      message: `spec.scheduling.resources.limits.memory in body should match '${QUANTITY_PATTERN}'`,
    },
  ],
);

group = 'Lease admission';
add('defaults the selector to {} and then requires a selector or an exporterRef', lease({}), [
  { path: 'spec', message: LeaseRuleMessages.selectorOrExporterRef },
]);
add(
  'accepts a lease pinned to an exporter without a selector',
  lease({ exporterRef: { name: 'rpi4-virtual-0' } }),
  [],
);
add(
  'rejects a context key longer than 32 characters',
  lease({ selector: { matchLabels: { a: 'b' } }, context: { ['k'.repeat(33)]: 'v' } }),
  [{ path: 'spec', message: LeaseRuleMessages.contextSizes }],
);
add(
  'rejects a context value longer than 64 characters',
  lease({ selector: { matchLabels: { a: 'b' } }, context: { build: 'x'.repeat(65) } }),
  [{ path: 'spec', message: LeaseRuleMessages.contextSizes }],
);
add(
  'rejects more than 8 context entries (and skips the rules, as for every broken bound)',
  lease({
    selector: { matchLabels: { a: 'b' } },
    context: Object.fromEntries(many(9, (i) => [`k${i}`, 'v'])),
  }),
  [
    { path: 'spec.context', message: 'Too many: 9: must have at most 8 items' },
    { path: '', message: CEL_SKIPPED_MESSAGE },
  ],
);

group = 'Lease admission › immutability on update (transition rules)';
{
  const old = lease({
    selector: { matchLabels: { a: 'b' } },
    tags: { team: 'bsp' },
    context: { build: '42' },
  });
  add('does not run them on create', old, []);
  add(
    'accepts an update that keeps tags and context',
    lease({
      selector: { matchLabels: { a: 'b' } },
      tags: { team: 'bsp' },
      context: { build: '42' },
      release: true,
    }),
    [],
    { oldObject: old },
  );
  add(
    'rejects changed tags',
    lease({ selector: { matchLabels: { a: 'b' } }, tags: { team: 'kernel' }, context: { build: '42' } }),
    [{ path: 'spec', message: LeaseRuleMessages.tagsImmutable }],
    { oldObject: old },
  );
  add(
    'rejects changed context',
    lease({ selector: { matchLabels: { a: 'b' } }, tags: { team: 'bsp' }, context: { build: '43' } }),
    [{ path: 'spec', message: LeaseRuleMessages.contextImmutable }],
    { oldObject: old },
  );
  add(
    'allows adding tags to a lease that had none',
    lease({ selector: { matchLabels: { a: 'b' } }, tags: { team: 'bsp' } }),
    [],
    { oldObject: lease({ selector: { matchLabels: { a: 'b' } } }) },
  );
}

// Synth time and admission agree (test/core/agreement.test.ts)
group = 'core validation agrees with admission';
{
  const withDrivers =
    (...list: Spec[]) =>
    (s: Spec) => {
      s.template.spec.drivers = list;
    };
  const withSchedule =
    (change: Spec) =>
    (s: Spec): void => {
      s.schedules = [
        { name: 'work', cron: '0 8 * * 1-5', duration: '10h', minAvailableReplicas: 2, ...change },
      ];
    };
  const DRIVER = `${DRIVERS}[0]`;
  const EXPRESSION = 'spec.selector.matchExpressions[0]';
  const SCHEDULE = 'spec.schedules[0]';
  /** A variant, the rule message both refuse it with, where admission reports it, and what else admission says. */
  const variants: [string, (spec: Spec) => void, string, string, AdmissionError[]?][] = [
    ['minReplicas > maxReplicas', set({ minReplicas: 4 }), RuleMessages.minReplicasLeMax, 'spec'],
    [
      'minAvailableReplicas > maxReplicas',
      set({ minAvailableReplicas: 4 }),
      RuleMessages.minAvailableLeMax,
      'spec',
    ],
    [
      'type and ref together',
      withDrivers({ name: 'a', type: 'x.Y', ref: 'x.y' }),
      RuleMessages.driverTypeRefExclusive,
      DRIVER,
    ],
    ['neither type nor ref', withDrivers({ name: 'a' }), RuleMessages.driverTypeOrRef, DRIVER],
    [
      'ref with config',
      withDrivers({ name: 'a', ref: 'x.y', config: { a: 1 } }),
      RuleMessages.driverRefNoConfig,
      DRIVER,
    ],
    ['an empty driver name', withDrivers({ name: '', type: 'x.Y' }), RuleMessages.driverNameNotEmpty, DRIVER],
    [
      'duplicate derived driver names',
      withDrivers(
        { type: 'jumpstarter_driver_power.driver.A' },
        { type: 'jumpstarter_driver_power.driver.B' },
      ),
      RuleMessages.driverNamesUnique,
      DRIVERS,
    ],
    [
      'a derived name colliding with a given one',
      withDrivers({ name: 'serial', type: 'x.Y' }, { type: 'jumpstarter_driver_serial.driver.QemuSerial' }),
      RuleMessages.driverNamesUnique,
      DRIVERS,
    ],
    [
      'a selector that misses the template labels',
      selector({ matchLabels: { board: 'rpi5' } }),
      RuleMessages.selectorMatchesTemplate,
      'spec.selector',
    ],
    [
      'a selector expression that excludes the template',
      selector({ matchExpressions: [{ key: 'arch', operator: 'NotIn', values: ['aarch64'] }] }),
      RuleMessages.selectorMatchesTemplate,
      'spec.selector',
    ],
    [
      'an unknown selector operator',
      selector({ matchExpressions: [{ key: 'arch', operator: 'Like', values: ['a'] }] }),
      RuleMessages.selectorOperator,
      EXPRESSION,
    ],
    [
      'values on Exists',
      selector({ matchExpressions: [{ key: 'arch', operator: 'Exists', values: ['a'] }] }),
      RuleMessages.selectorValues,
      EXPRESSION,
    ],
    [
      'a cooldown in words',
      set({ scaleDownCooldown: '5 minutes' }),
      RuleMessages.scaleDownCooldownDuration,
      'spec.scaleDownCooldown',
    ],
    [
      'a negative cooldown',
      set({ scaleDownCooldown: '-5m' }),
      RuleMessages.scaleDownCooldownDuration,
      'spec.scaleDownCooldown',
    ],
    [
      'a cooldown without a unit',
      set({ scaleDownCooldown: '5' }),
      RuleMessages.scaleDownCooldownDuration,
      'spec.scaleDownCooldown',
    ],
    [
      'a pinned revision with capitals',
      set({ pinnedRevision: 'Pool-1' }),
      RuleMessages.pinnedRevision,
      'spec.pinnedRevision',
    ],
    [
      'a pinned revision ending in a dot',
      set({ pinnedRevision: 'pool-1.' }),
      RuleMessages.pinnedRevision,
      'spec.pinnedRevision',
    ],
    [
      'a schedule name with capitals',
      withSchedule({ name: 'Work' }),
      RuleMessages.scheduleName,
      `${SCHEDULE}.name`,
    ],
    [
      'two schedules of one name',
      (s) => {
        withSchedule({})(s);
        s.schedules.push({ ...s.schedules[0], cron: '@daily' });
      },
      RuleMessages.scheduleNamesUnique,
      'spec.schedules',
      // The schedules are a list-type map keyed by name: the API server reports the duplicate key too.
      [{ path: 'spec.schedules[1]', message: 'Duplicate value: {"name":"work"}' }],
    ],
    [
      'a cron of four fields',
      withSchedule({ cron: '0 8 * *' }),
      RuleMessages.scheduleCron,
      `${SCHEDULE}.cron`,
    ],
    [
      'a cron of six fields',
      withSchedule({ cron: '0 0 8 * * 1-5' }),
      RuleMessages.scheduleCron,
      `${SCHEDULE}.cron`,
    ],
    [
      'an unknown cron macro',
      withSchedule({ cron: '@workdays' }),
      RuleMessages.scheduleCron,
      `${SCHEDULE}.cron`,
    ],
    [
      'a window duration in words',
      withSchedule({ duration: '8 hours' }),
      RuleMessages.scheduleDuration,
      `${SCHEDULE}.duration`,
    ],
    [
      'a zero window duration',
      withSchedule({ duration: '0s' }),
      RuleMessages.scheduleDurationPositive,
      `${SCHEDULE}.duration`,
    ],
    [
      'a lead time without a unit',
      withSchedule({ leadTime: '5' }),
      RuleMessages.scheduleLeadTime,
      `${SCHEDULE}.leadTime`,
    ],
    [
      'a time zone with a space',
      withSchedule({ timeZone: 'Europe/New York' }),
      RuleMessages.scheduleTimeZone,
      `${SCHEDULE}.timeZone`,
    ],
    [
      'a time zone as an offset',
      withSchedule({ timeZone: '+01:00' }),
      RuleMessages.scheduleTimeZone,
      `${SCHEDULE}.timeZone`,
    ],
    [
      'a schedule buffer above maxReplicas',
      withSchedule({ minAvailableReplicas: 4 }),
      RuleMessages.scheduleMinAvailableLeMax,
      'spec.schedules',
    ],
    [
      'a schedule floor above maxReplicas',
      withSchedule({ minReplicas: 4 }),
      RuleMessages.scheduleMinReplicasLeMax,
      'spec.schedules',
    ],
  ];
  for (const [name, change, message, path, more = []] of variants) {
    add(
      `rejects ${name} with the same rule message at synth time and admission`,
      agreementSetWith(change),
      [...more, { path, message }],
      { synth: { message } },
    );
  }

  const skipped = { path: '', message: CEL_SKIPPED_MESSAGE };
  const tooMany = (n: number, max: number) => `Too many: ${n}: must have at most ${max} items`;
  const tooLong = (max: number) => `Too long: may not be more than ${max} bytes`;
  /** Over a CRD size bound: synth time refuses it at the same path as admission, which says `message`. */
  const overBounds: [string, (spec: Spec) => void, string, string][] = [
    [
      '65 drivers',
      withDrivers(...many(65, (i) => ({ name: `d${i}`, type: 'x.Y' }))),
      DRIVERS,
      tooMany(65, 64),
    ],
    [
      'a 129-character driver type',
      withDrivers({ type: `x.${'Y'.repeat(127)}` }),
      `${DRIVER}.type`,
      tooLong(128),
    ],
    [
      '65 template labels',
      (s) => Object.assign(s.template.metadata.labels, Object.fromEntries(many(65, (i) => [`l${i}`, 'v']))),
      'spec.template.metadata.labels',
      tooMany(67, 64),
    ],
    [
      '33 selector requirements',
      selector({ matchExpressions: many(33, () => ({ key: 'board', operator: 'Exists' })) }),
      'spec.selector.matchExpressions',
      tooMany(33, 32),
    ],
    [
      '65 values in a requirement',
      selector({ matchExpressions: [{ key: 'board', operator: 'NotIn', values: many(65, (i) => `v${i}`) }] }),
      `${EXPRESSION}.values`,
      tooMany(65, 64),
    ],
    [
      'a 254-character pinned revision',
      set({ pinnedRevision: 'a'.repeat(254) }),
      'spec.pinnedRevision',
      tooLong(253),
    ],
    [
      '17 schedules',
      set({
        schedules: many(17, (i) => ({
          name: `s${i}`,
          cron: '@daily',
          duration: '1h',
          minAvailableReplicas: 1,
        })),
      }),
      'spec.schedules',
      tooMany(17, 16),
    ],
    [
      'a 129-character cron',
      withSchedule({ cron: `0 8 * * ${'1,'.repeat(60)}1-5` }),
      `${SCHEDULE}.cron`,
      tooLong(128),
    ],
    [
      'a 65-character time zone',
      withSchedule({ timeZone: `A/${'b'.repeat(63)}` }),
      `${SCHEDULE}.timeZone`,
      tooLong(64),
    ],
    [
      'a 65-character cooldown',
      set({ scaleDownCooldown: '1s'.repeat(32) + '1' }),
      'spec.scaleDownCooldown',
      tooLong(64),
    ],
  ];
  for (const [name, change, path, message] of overBounds) {
    add(
      `rejects ${name} over the CRD size bounds, at admission and at synth time`,
      agreementSetWith(change),
      [{ path, message }, skipped],
      { synth: { path, message: /^must (have|be) at most \d+ / } },
    );
  }
  add(
    'rejects a non-object parameters on ExporterSet',
    agreementSetWith(set({ parameters: 'fast' })),
    [notAnObject('string'), skipped],
    { synth: { path: 'spec.parameters', message: RuleMessages.parametersObject } },
  );
  add(
    'rejects a non-object parameters on VirtualTargetClass',
    classWith({ provisioner: 'qemu.jumpstarter.dev', parameters: ['a'] }),
    [notAnObject('array')],
    { synth: { path: 'spec.parameters', message: RuleMessages.parametersObject } },
  );
}

export const ADMISSION_CASES: readonly AdmissionCase[] = cases;

const crdByKind = {
  ExporterSet: exporterSetCrd,
  VirtualTargetClass: virtualTargetClassCrd,
  ExporterOperation: exporterOperationCrd,
  Lease: leaseCrd,
} as const;

/** What the test cluster's admission says of a case (test/support/crd-validator). */
export function testClusterErrors(c: AdmissionCase): AdmissionError[] {
  const crd = crdByKind[c.object.kind as keyof typeof crdByKind];
  return admit(crd, c.object, c.oldObject ? { oldObject: c.oldObject } : {}).errors;
}
