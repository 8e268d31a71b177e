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

  it('resolves the Corellium provisioner by name', () => {
    expect(resolveProvisionerFlag('corellium.jumpstarter.dev').name).toBe('corellium.jumpstarter.dev');
  });

  it('resolves the Android provisioner by name', () => {
    expect(resolveProvisionerFlag('android.jumpstarter.dev').name).toBe('android.jumpstarter.dev');
  });

  it('requires a provisioner and lists the known ones', () => {
    expect(() => resolveProvisionerFlag(undefined)).toThrow(
      /^--provisioner is required; this controller implements: android\.jumpstarter\.dev, corellium\.jumpstarter\.dev, qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });

  it('refuses a provisioner the JEP names but this build does not implement', () => {
    expect(() => resolveProvisionerFlag('ec2.jumpstarter.dev')).toThrow(
      /^--provisioner=ec2\.jumpstarter\.dev is not implemented by this controller; use one of: android\.jumpstarter\.dev, corellium\.jumpstarter\.dev, qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });

  it('rejects an unknown provisioner and lists the known ones', () => {
    expect(() => resolveProvisionerFlag('qemu.example.com')).toThrow(
      /^--provisioner=qemu\.example\.com is not implemented by this controller; use one of: android\.jumpstarter\.dev, corellium\.jumpstarter\.dev, qemu-baremetal\.jumpstarter\.dev, qemu-ssh\.jumpstarter\.dev, qemu\.jumpstarter\.dev$/,
    );
  });
});
