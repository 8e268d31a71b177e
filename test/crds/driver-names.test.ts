/**
 * The CRD derives driver names in CEL; lib/core/drivers.ts derives them in TypeScript. Both must
 * agree, or admission and the controller would disagree about which names clash.
 */
import { describe, expect, it } from '@jest/globals';
import { Environment } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import type { DriverConfig } from '../../lib/api';
import { RuleMessages } from '../../lib/api/rules';
import { deriveDriverName, duplicateDriverNames } from '../../lib/core/drivers';
import { derivedDriverNameCel, exporterSetCrd } from '../../lib/crds';
import { admit } from '../support/crd-validator';

const env = new Environment().registerVariable('d', 'dyn');
const derive = env.parse(derivedDriverNameCel('d'));

const segment = fc.constantFrom(
  'power',
  'serial',
  'driver',
  'x',
  'jumpstarter_driver_power',
  'jumpstarter_driver_',
);
const dotted = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
const typeName = fc.oneof(
  dotted,
  fc
    .tuple(fc.constantFrom('power', 'serial', 'qemu', ''), dotted)
    .map(([x, rest]) => `jumpstarter_driver_${x}.${rest}`),
);
const name = fc.constantFrom('power', 'serial', 'tcp', 'qemu', 'driver', 'x');

/** Valid driver entries: a name or not, and exactly one of type and ref. */
const driver: fc.Arbitrary<DriverConfig> = fc.oneof(
  fc.record({ name, type: typeName }, { requiredKeys: ['type'] }),
  fc.record({ name, ref: dotted }, { requiredKeys: ['ref'] }),
);

describe('driver name derivation in CEL', () => {
  it.each<[DriverConfig, string]>([
    [{ type: 'jumpstarter_driver_power.driver.QemuPower' }, 'power'],
    [{ type: 'acme_drivers.power.Relay' }, 'acme_drivers'],
    [{ type: 'Standalone' }, 'Standalone'],
    [{ type: 'jumpstarter_driver_power' }, 'power'],
    [{ type: 'jumpstarter_driver_' }, ''],
    [{ type: 'jumpstarter_driver_.x' }, ''],
    [{ ref: 'board.console.serial' }, 'serial'],
    [{ ref: 'serial' }, 'serial'],
    [{ name: 'given', type: 'jumpstarter_driver_power.driver.QemuPower' }, 'given'],
  ])('derives %j as %j', (d, expected) => {
    expect(derive({ d })).toBe(expected);
    expect(deriveDriverName(d)).toBe(expected);
  });

  it('agrees with deriveDriverName on any valid entry', () => {
    fc.assert(
      fc.property(driver, (d) => {
        expect(derive({ d })).toBe(deriveDriverName(d));
      }),
    );
  });

  it('rejects exactly the driver lists that duplicateDriverNames finds clashes in', () => {
    fc.assert(
      fc.property(fc.array(driver, { maxLength: 5 }), (drivers) => {
        const set = {
          apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
          kind: 'ExporterSet',
          metadata: { name: 's' },
          spec: {
            virtualTargetClassName: 'c',
            selector: {},
            template: { spec: { drivers } },
          },
        };
        const messages = admit(exporterSetCrd, set).errors.map((e) => e.message);
        expect(messages.includes(RuleMessages.driverNamesUnique)).toBe(
          duplicateDriverNames(drivers).length > 0,
        );
      }),
      { numRuns: 300 },
    );
  });
});
