import { describe, expect, it } from '@jest/globals';
import {
  ProvisionerRegistry,
  RESERVED_PROVISIONERS,
  builtinProvisioners,
  getProvisioner,
  isReservedProvisioner,
  knownProvisionerNames,
  qemuBaremetalProvisioner,
  qemuProvisioner,
  qemuSshProvisioner,
  corelliumProvisioner,
  androidProvisioner,
  registerProvisioner,
  type Provisioner,
} from '../../lib/provisioners';

function plugin(name: string): Provisioner {
  return {
    name,
    validate: () => [],
    render: () => ({ objects: [] }),
  };
}

describe('provisioner registry', () => {
  it('has the QEMU, QEMU-over-SSH, Corellium and Android provisioners built in, qemu-baremetal an alias of qemu-ssh', () => {
    expect(builtinProvisioners).toEqual([
      qemuProvisioner,
      qemuSshProvisioner,
      qemuBaremetalProvisioner,
      corelliumProvisioner,
      androidProvisioner,
    ]);
    expect(getProvisioner('qemu.jumpstarter.dev')).toBe(qemuProvisioner);
    expect(getProvisioner('qemu-ssh.jumpstarter.dev')).toBe(qemuSshProvisioner);
    const alias = getProvisioner('qemu-baremetal.jumpstarter.dev')!;
    expect(alias.validate).toBe(qemuSshProvisioner.validate);
    expect(alias.lifecycle).toBe(qemuSshProvisioner.lifecycle);
    expect(getProvisioner('android.jumpstarter.dev')).toBe(androidProvisioner);
    expect(getProvisioner('corellium.jumpstarter.dev')).toBe(corelliumProvisioner);
  });

  it('asks a provisioner for validate and render only: removal outside the cluster is the lifecycle teardown', () => {
    // No hook that nothing calls: what an instance holds in the cluster goes with its Exporter, what it
    // holds elsewhere is removed by lifecycle.teardown before the Exporter is deleted.
    for (const p of builtinProvisioners) expect(Object.keys(p)).not.toContain('cleanup');
    const registry = new ProvisionerRegistry([]);
    const bare = { name: 'bare.example.com', validate: () => [], render: () => ({ objects: [] }) };
    registry.register(bare);
    expect(registry.get('bare.example.com')).toBe(bare);
  });

  it('reserves the JEP provisioners it does not implement yet', () => {
    expect([...RESERVED_PROVISIONERS].sort()).toEqual(['ec2.jumpstarter.dev']);
    for (const name of RESERVED_PROVISIONERS) {
      expect(getProvisioner(name)).toBeUndefined();
      expect(isReservedProvisioner(name)).toBe(true);
    }
    expect(isReservedProvisioner('qemu.jumpstarter.dev')).toBe(false);
    expect(isReservedProvisioner('nope.example.com')).toBe(false);
  });

  it('knows implemented names first, then reserved ones', () => {
    expect(knownProvisionerNames()).toEqual([
      'android.jumpstarter.dev',
      'corellium.jumpstarter.dev',
      'qemu-baremetal.jumpstarter.dev',
      'qemu-ssh.jumpstarter.dev',
      'qemu.jumpstarter.dev',
      'ec2.jumpstarter.dev',
    ]);
  });

  it('returns undefined for an unknown name', () => {
    expect(getProvisioner('vmware.example.com')).toBeUndefined();
  });

  it('registers a user plug-in and removes it again', () => {
    const mine = plugin('lab-vm.example.com');
    const unregister = registerProvisioner(mine);
    try {
      expect(getProvisioner('lab-vm.example.com')).toBe(mine);
      expect(knownProvisionerNames()).toContain('lab-vm.example.com');
    } finally {
      unregister();
    }
    expect(getProvisioner('lab-vm.example.com')).toBeUndefined();
  });

  it('refuses a duplicate name with a message that says what to do', () => {
    expect(() => registerProvisioner(plugin('qemu.jumpstarter.dev'))).toThrow(
      'provisioner "qemu.jumpstarter.dev" is already registered; a plug-in needs a name of its own, such as "<name>.<your-domain>"',
    );
    expect(getProvisioner('qemu.jumpstarter.dev')).toBe(qemuProvisioner);
  });

  it('lets a plug-in implement a reserved name, which then validates like any other', () => {
    const registry = new ProvisionerRegistry();
    const ec2 = plugin('ec2.jumpstarter.dev');
    registry.register(ec2);
    expect(registry.get('ec2.jumpstarter.dev')).toBe(ec2);
    expect(registry.knownNames()).toEqual([
      'android.jumpstarter.dev',
      'corellium.jumpstarter.dev',
      'ec2.jumpstarter.dev',
      'qemu-baremetal.jumpstarter.dev',
      'qemu-ssh.jumpstarter.dev',
      'qemu.jumpstarter.dev',
    ]);
    expect(getProvisioner('ec2.jumpstarter.dev')).toBeUndefined();
  });

  it('refuses a malformed plug-in', () => {
    const registry = new ProvisionerRegistry([]);
    expect(() => registry.register({ ...plugin(''), name: '' })).toThrow(
      'a provisioner needs a non-empty name, such as "qemu.jumpstarter.dev"',
    );
    expect(() => registry.register({ ...plugin('x.example.com'), render: undefined } as never)).toThrow(
      'provisioner "x.example.com" has no render() function; a provisioner implements validate and render',
    );
    expect(registry.knownNames()).toEqual([...RESERVED_PROVISIONERS].sort());
  });

  it('does not let a stale unregister remove a later registration of the same name', () => {
    const registry = new ProvisionerRegistry([]);
    const first = plugin('a.example.com');
    const unregisterFirst = registry.register(first);
    unregisterFirst();
    const second = plugin('a.example.com');
    registry.register(second);
    unregisterFirst();
    expect(registry.get('a.example.com')).toBe(second);
  });
});
