import { describe, expect, it } from '@jest/globals';
import { resolveProvisionerFlag } from '../src/provisioner-flag';

describe('--provisioner flag', () => {
  it('resolves the QEMU provisioner by name', () => {
    expect(resolveProvisionerFlag('qemu.jumpstarter.dev').name).toBe('qemu.jumpstarter.dev');
  });

  it('resolves qemu-ssh and its alias qemu-baremetal, both with the SSH lifecycle', () => {
    const ssh = resolveProvisionerFlag('qemu-ssh.jumpstarter.dev');
    const alias = resolveProvisionerFlag('qemu-baremetal.jumpstarter.dev');
    expect([ssh.name, alias.name]).toEqual(['qemu-ssh.jumpstarter.dev', 'qemu-baremetal.jumpstarter.dev']);
    expect(ssh.lifecycle).toBeDefined();
    expect(alias.lifecycle).toBe(ssh.lifecycle);
  });

  it('requires a provisioner and lists the known ones', () => {
    expect(() => resolveProvisionerFlag(undefined)).toThrow(
      /^--provisioner is required; this controller implements: qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });

  it('refuses a provisioner the JEP names but this build does not implement', () => {
    expect(() => resolveProvisionerFlag('corellium.jumpstarter.dev')).toThrow(
      /^--provisioner=corellium\.jumpstarter\.dev is not implemented by this controller; use one of: qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });

  it('rejects an unknown provisioner and lists the known ones', () => {
    expect(() => resolveProvisionerFlag('qemu.example.com')).toThrow(
      /^--provisioner=qemu\.example\.com is not implemented by this controller; use one of: qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });
});
