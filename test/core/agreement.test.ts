/**
 * Synth time and admission say the same thing: the core validators (run by the constructs and the
 * controller) accept everything our CRDs accept among the JEP and upstream examples, and reject the
 * invalid variants with the same rule message the CRD's CEL rule gives.
 */
import { describe, expect, it } from '@jest/globals';
import { RuleMessages } from '../../lib/api';
import { validateExporterSet, validateVirtualTargetClass } from '../../lib/core';
import { exporterSetCrd, virtualTargetClassCrd } from '../../lib/crds';
import { admit } from '../support/crd-validator';
import { describeWithUpstream, upstreamExamples } from '../support/upstream-reference';
import { JEP_FIXTURES_DIR, UPSTREAM_STYLE_FIXTURES_DIR, manifestsIn, type Manifest } from '../crds/manifests';

const ofOurKinds = ({ manifest }: { manifest: Manifest }) =>
  manifest.kind === 'ExporterSet' || manifest.kind === 'VirtualTargetClass';

const examples = [...manifestsIn(JEP_FIXTURES_DIR), ...manifestsIn(UPSTREAM_STYLE_FIXTURES_DIR)]
  .filter(ofOurKinds)
  .map(({ file, manifest }) => [`${file}: ${manifest.kind}`, manifest] as const);

/** What the core validator finds in an example (its status left out, as admission drops it). */
function coreIssues(manifest: Manifest) {
  const { status: _status, ...object } = manifest;
  return manifest.kind === 'ExporterSet' ? validateExporterSet(object) : validateVirtualTargetClass(object);
}

describeWithUpstream("core validation of upstream's samples and e2e manifests", () => {
  it('accepts every one', () => {
    const found = upstreamExamples().filter(ofOurKinds);
    expect(found.length).toBeGreaterThanOrEqual(10);
    expect(
      found.flatMap((m) => coreIssues(m.manifest).map((i) => `${m.file}: ${i.path}: ${i.message}`)),
    ).toEqual([]);
  });
});

describe('core validation agrees with admission', () => {
  it.each(examples)('accepts %s', (_label, manifest) => {
    expect(coreIssues(manifest)).toEqual([]);
  });

  type Spec = Record<string, any>;
  const base = (): Spec => ({
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
  });
  const withDrivers =
    (...drivers: Spec[]) =>
    (s: Spec) => {
      s.template.spec.drivers = drivers;
    };

  const withSchedule =
    (change: Spec) =>
    (s: Spec): void => {
      s.schedules = [
        { name: 'work', cron: '0 8 * * 1-5', duration: '10h', minAvailableReplicas: 2, ...change },
      ];
    };

  const variants: [string, (spec: Spec) => void, string][] = [
    ['minReplicas > maxReplicas', (s) => Object.assign(s, { minReplicas: 4 }), RuleMessages.minReplicasLeMax],
    [
      'minAvailableReplicas > maxReplicas',
      (s) => Object.assign(s, { minAvailableReplicas: 4 }),
      RuleMessages.minAvailableLeMax,
    ],
    [
      'type and ref together',
      withDrivers({ name: 'a', type: 'x.Y', ref: 'x.y' }),
      RuleMessages.driverTypeRefExclusive,
    ],
    ['neither type nor ref', withDrivers({ name: 'a' }), RuleMessages.driverTypeOrRef],
    [
      'ref with config',
      withDrivers({ name: 'a', ref: 'x.y', config: { a: 1 } }),
      RuleMessages.driverRefNoConfig,
    ],
    ['an empty driver name', withDrivers({ name: '', type: 'x.Y' }), RuleMessages.driverNameNotEmpty],
    [
      'duplicate derived driver names',
      withDrivers(
        { type: 'jumpstarter_driver_power.driver.A' },
        { type: 'jumpstarter_driver_power.driver.B' },
      ),
      RuleMessages.driverNamesUnique,
    ],
    [
      'a derived name colliding with a given one',
      withDrivers({ name: 'serial', type: 'x.Y' }, { type: 'jumpstarter_driver_serial.driver.QemuSerial' }),
      RuleMessages.driverNamesUnique,
    ],
    [
      'a selector that misses the template labels',
      (s) => (s.selector = { matchLabels: { board: 'rpi5' } }),
      RuleMessages.selectorMatchesTemplate,
    ],
    [
      'a selector expression that excludes the template',
      (s) => (s.selector = { matchExpressions: [{ key: 'arch', operator: 'NotIn', values: ['aarch64'] }] }),
      RuleMessages.selectorMatchesTemplate,
    ],
    [
      'an unknown selector operator',
      (s) => (s.selector = { matchExpressions: [{ key: 'arch', operator: 'Like', values: ['a'] }] }),
      RuleMessages.selectorOperator,
    ],
    [
      'values on Exists',
      (s) => (s.selector = { matchExpressions: [{ key: 'arch', operator: 'Exists', values: ['a'] }] }),
      RuleMessages.selectorValues,
    ],
    [
      'a cooldown in words',
      (s) => (s.scaleDownCooldown = '5 minutes'),
      RuleMessages.scaleDownCooldownDuration,
    ],
    ['a negative cooldown', (s) => (s.scaleDownCooldown = '-5m'), RuleMessages.scaleDownCooldownDuration],
    ['a cooldown without a unit', (s) => (s.scaleDownCooldown = '5'), RuleMessages.scaleDownCooldownDuration],
    ['a pinned revision with capitals', (s) => (s.pinnedRevision = 'Pool-1'), RuleMessages.pinnedRevision],
    ['a pinned revision ending in a dot', (s) => (s.pinnedRevision = 'pool-1.'), RuleMessages.pinnedRevision],
    ['a schedule name with capitals', withSchedule({ name: 'Work' }), RuleMessages.scheduleName],
    [
      'two schedules of one name',
      (s) => {
        withSchedule({})(s);
        s.schedules.push({ ...s.schedules[0], cron: '@daily' });
      },
      RuleMessages.scheduleNamesUnique,
    ],
    ['a cron of four fields', withSchedule({ cron: '0 8 * *' }), RuleMessages.scheduleCron],
    ['a cron of six fields', withSchedule({ cron: '0 0 8 * * 1-5' }), RuleMessages.scheduleCron],
    ['an unknown cron macro', withSchedule({ cron: '@workdays' }), RuleMessages.scheduleCron],
    ['a window duration in words', withSchedule({ duration: '8 hours' }), RuleMessages.scheduleDuration],
    ['a zero window duration', withSchedule({ duration: '0s' }), RuleMessages.scheduleDurationPositive],
    ['a lead time without a unit', withSchedule({ leadTime: '5' }), RuleMessages.scheduleLeadTime],
    [
      'a time zone with a space',
      withSchedule({ timeZone: 'Europe/New York' }),
      RuleMessages.scheduleTimeZone,
    ],
    ['a time zone as an offset', withSchedule({ timeZone: '+01:00' }), RuleMessages.scheduleTimeZone],
    [
      'a schedule buffer above maxReplicas',
      withSchedule({ minAvailableReplicas: 4 }),
      RuleMessages.scheduleMinAvailableLeMax,
    ],
    [
      'a schedule floor above maxReplicas',
      withSchedule({ minReplicas: 4 }),
      RuleMessages.scheduleMinReplicasLeMax,
    ],
  ];

  it.each(variants)(
    'rejects %s with the same rule message at synth time and admission',
    (_name, change, message) => {
      const spec = base();
      change(spec);
      const set = {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterSet',
        metadata: { name: 'p' },
        spec,
      };
      expect(admit(exporterSetCrd, set).errors.map((e) => e.message)).toContain(message);
      expect(validateExporterSet(set).map((i) => i.message)).toContain(message);
    },
  );

  const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  const overBounds: [string, (spec: Spec) => void, string][] = [
    [
      '65 drivers',
      withDrivers(...(many(65, (i) => ({ name: `d${i}`, type: 'x.Y' })) as Spec[])),
      'spec.template.spec.drivers',
    ],
    [
      'a 129-character driver type',
      withDrivers({ type: `x.${'Y'.repeat(127)}` }),
      'spec.template.spec.drivers[0].type',
    ],
    [
      '65 template labels',
      (s) => Object.assign(s.template.metadata.labels, Object.fromEntries(many(65, (i) => [`l${i}`, 'v']))),
      'spec.template.metadata.labels',
    ],
    [
      '33 selector requirements',
      (s) => (s.selector = { matchExpressions: many(33, () => ({ key: 'board', operator: 'Exists' })) }),
      'spec.selector.matchExpressions',
    ],
    [
      '65 values in a requirement',
      (s) =>
        (s.selector = {
          matchExpressions: [{ key: 'board', operator: 'NotIn', values: many(65, (i) => `v${i}`) }],
        }),
      'spec.selector.matchExpressions[0].values',
    ],
    ['a 254-character pinned revision', (s) => (s.pinnedRevision = 'a'.repeat(254)), 'spec.pinnedRevision'],
    [
      '17 schedules',
      (s) =>
        (s.schedules = many(17, (i) => ({
          name: `s${i}`,
          cron: '@daily',
          duration: '1h',
          minAvailableReplicas: 1,
        }))),
      'spec.schedules',
    ],
    [
      'a 129-character cron',
      withSchedule({ cron: `0 8 * * ${'1,'.repeat(60)}1-5` }),
      'spec.schedules[0].cron',
    ],
    [
      'a 65-character time zone',
      withSchedule({ timeZone: `A/${'b'.repeat(63)}` }),
      'spec.schedules[0].timeZone',
    ],
    [
      'a 65-character cooldown',
      (s) => (s.scaleDownCooldown = '1s'.repeat(32) + '1'),
      'spec.scaleDownCooldown',
    ],
  ];

  it.each(overBounds)(
    'rejects %s over the CRD size bounds, at admission and at synth time',
    (_name, change, at) => {
      const spec = base();
      change(spec);
      const set = {
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'ExporterSet',
        metadata: { name: 'p' },
        spec,
      };
      expect(admit(exporterSetCrd, set).errors.map((e) => e.path)).toContain(at);
      expect(validateExporterSet(set)).toContainEqual(
        expect.objectContaining({ path: at, message: expect.stringMatching(/^must (have|be) at most \d+ /) }),
      );
    },
  );

  const nonObjectParameters: [string, object, (obj: unknown) => unknown[], Spec][] = [
    ['ExporterSet', exporterSetCrd, validateExporterSet, { ...base(), parameters: 'fast' }],
    [
      'VirtualTargetClass',
      virtualTargetClassCrd,
      validateVirtualTargetClass,
      { provisioner: 'qemu.jumpstarter.dev', parameters: ['a'] },
    ],
  ];
  it.each(nonObjectParameters)('rejects a non-object parameters on %s', (kind, crd, validate, spec) => {
    const obj = { apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1', kind, metadata: { name: 'p' }, spec };
    // Admission checks types before CEL, so the schema's type error is what the API server says.
    expect(admit(crd as any, obj).errors).toContainEqual(
      expect.objectContaining({ path: 'spec.parameters', message: expect.stringContaining('object') }),
    );
    expect(validate(obj)).toContainEqual(
      expect.objectContaining({ path: 'spec.parameters', message: RuleMessages.parametersObject }),
    );
  });
});
