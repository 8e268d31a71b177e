import { describe, expect, it } from '@jest/globals';
import type { DriverConfig } from '../../lib/api';
import { deriveDriverName, duplicateDriverNames, withDerivedName } from '../../lib/core/drivers';

describe('driver names', () => {
  it.each<[DriverConfig, string | undefined]>([
    // The JEP's drivers, listed without names.
    [{ type: 'jumpstarter_driver_power.driver.QemuPower' }, 'power'],
    [{ type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { port: 22 } }, 'network'],
    [{ type: 'jumpstarter_driver_serial.driver.QemuSerial' }, 'serial'],
    [{ type: 'jumpstarter_driver_android.driver.AdbDriver' }, 'android'],
    [{ type: 'jumpstarter_driver_corellium.driver.Corellium' }, 'corellium'],
    [{ type: 'jumpstarter_driver_qemu.driver.Qemu' }, 'qemu'],
    // A given name wins.
    [{ name: 'tcp', type: 'jumpstarter_driver_network.driver.TcpNetwork' }, 'tcp'],
    [{ name: 'console', ref: 'qemu.console' }, 'console'],
    // Other packages: the package itself.
    [{ type: 'acme_drivers.power.Relay' }, 'acme_drivers'],
    [{ type: 'Standalone' }, 'Standalone'],
    // Refs: the last segment.
    [{ ref: 'qemu.power' }, 'power'],
    [{ ref: 'board.uart.console' }, 'console'],
    [{ ref: 'serial' }, 'serial'],
    // Nothing to derive from.
    [{}, undefined],
    [{ type: '' }, undefined],
    [{ ref: '' }, undefined],
  ])('derives %j → %p', (driver, name) => {
    expect(deriveDriverName(driver)).toBe(name);
  });

  it('keeps an explicitly empty name (the validator rejects it)', () => {
    expect(deriveDriverName({ name: '', type: 'jumpstarter_driver_power.driver.QemuPower' })).toBe('');
  });

  it('finds names that occur more than once after derivation, in first-seen order', () => {
    expect(
      duplicateDriverNames([
        { type: 'jumpstarter_driver_power.driver.QemuPower' },
        { ref: 'qemu.power' },
        { type: 'jumpstarter_driver_network.driver.TcpNetwork' },
        { name: 'network', type: 'jumpstarter_driver_network.driver.UdpNetwork' },
        { name: 'power', ref: 'x.y' },
        { type: 'jumpstarter_driver_serial.driver.QemuSerial' },
      ]),
    ).toEqual(['power', 'network']);
  });

  it('finds no duplicates in the JEP drivers or among distinct names', () => {
    expect(
      duplicateDriverNames([
        { type: 'jumpstarter_driver_power.driver.QemuPower' },
        { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { port: 22 } },
        { type: 'jumpstarter_driver_serial.driver.QemuSerial' },
      ]),
    ).toEqual([]);
    expect(duplicateDriverNames([{ name: 'a', type: 't.x' }, { name: 'b', type: 't.x' }, {}, {}])).toEqual(
      [],
    );
  });

  it('writes the derived name into an unnamed driver, first, keeping everything else', () => {
    const config = { port: 22 };
    const driver = { type: 'jumpstarter_driver_network.driver.TcpNetwork', config };
    const named = withDerivedName(driver);
    expect(named).toEqual({ name: 'network', type: 'jumpstarter_driver_network.driver.TcpNetwork', config });
    expect(Object.keys(named)[0]).toBe('name');
    expect(driver).toEqual({ type: 'jumpstarter_driver_network.driver.TcpNetwork', config }); // not mutated
    expect(withDerivedName({ ref: 'board.uart.console' })).toEqual({
      name: 'console',
      ref: 'board.uart.console',
    });
  });

  it('leaves a named driver, and one with nothing to derive a name from, as they are', () => {
    const named = { name: 'tcp', type: 'jumpstarter_driver_network.driver.TcpNetwork' };
    expect(withDerivedName(named)).toBe(named);
    const empty = { name: '', type: 'jumpstarter_driver_power.driver.QemuPower' };
    expect(withDerivedName(empty)).toBe(empty); // the validator reports the empty name
    expect(withDerivedName({ type: '' })).toEqual({ type: '' });
    expect(withDerivedName({ config: {} })).toEqual({ config: {} });
  });
});
