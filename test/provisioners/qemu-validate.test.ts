import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { DriverConfig } from '../../lib/api';
import { formatIssue } from '../../lib/core/issue';
import { validateQemuParameters } from '../../lib/provisioners';

const lines = (parameters: unknown, drivers?: DriverConfig[]) =>
  validateQemuParameters(parameters, drivers ? { drivers } : undefined).map(formatIssue);

describe('QEMU parameters › valid input', () => {
  it('accepts the JEP example, placeholder digest included', () => {
    const jep = {
      machineType: 'virt',
      firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc...' },
      resources: { cpu: 4, memory: '4Gi', storage: '16Gi' },
    };
    expect(lines(jep)).toEqual([]);
  });

  it('accepts every field in its documented form', () => {
    const full = {
      arch: 'x86_64',
      machineType: 'q35',
      resources: { cpu: '2', memory: 536870912, storage: '20G' },
      firmware: { url: 'oci://quay.io/fw:1', digest: `sha512:${'a'.repeat(128)}` },
      kvm: true,
    };
    expect(lines(full)).toEqual([]);
  });

  it('accepts absent parameters and an empty object', () => {
    expect(lines(undefined)).toEqual([]);
    expect(lines({})).toEqual([]);
  });

  it('keeps unknown keys and does not report them', () => {
    const parameters = { arch: 'aarch64', bootOrder: ['disk'], extra: { nested: null } };
    const snapshot = JSON.parse(JSON.stringify(parameters));
    expect(lines(parameters)).toEqual([]);
    expect(parameters).toEqual(snapshot);
  });

  it('treats null as absent, so a set can clear a class value', () => {
    expect(
      lines({ arch: null, machineType: null, resources: { cpu: null }, firmware: null, kvm: null }),
    ).toEqual([]);
  });

  it('accepts whole cores in milli form', () => {
    expect(lines({ resources: { cpu: '3000m' } })).toEqual([]);
  });
});

describe('QEMU parameters › rules', () => {
  it.each<[string, unknown, string]>([
    [
      'a string',
      'arch: aarch64',
      ': parameters must be an object (a nested map of provisioner settings) (got "arch: aarch64")',
    ],
    ['a list', [1], ': parameters must be an object (a nested map of provisioner settings) (got [1])'],
    ['null', null, ': parameters must be an object (a nested map of provisioner settings) (got null)'],
  ])('rejects %s at the top level', (_what, parameters, line) => {
    expect(lines(parameters)).toEqual([line]);
  });

  it.each<[unknown, string]>([
    [{ arch: 'arm64' }, 'arch: must be one of "x86_64", "aarch64" (the guest architecture) (got "arm64")'],
    [{ arch: 64 }, 'arch: must be one of "x86_64", "aarch64" (the guest architecture) (got 64)'],
    [
      { machineType: '' },
      'machineType: must be a non-empty string naming a QEMU machine type, such as "virt" or "q35" (got "")',
    ],
    [
      { machineType: { name: 'virt' } },
      'machineType: must be a non-empty string naming a QEMU machine type, such as "virt" or "q35" (got {"name":"virt"})',
    ],
    [
      { resources: '4 cores' },
      'resources: must be an object with optional cpu, memory and storage quantities (got "4 cores")',
    ],
    [
      { resources: { cpu: '500m' } },
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got "500m")',
    ],
    [
      { resources: { cpu: 2.5 } },
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got 2.5)',
    ],
    [
      { resources: { cpu: 0 } },
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got 0)',
    ],
    [
      { resources: { cpu: 'four' } },
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got "four")',
    ],
    [
      { resources: { memory: '8 GB' } },
      'resources.memory: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got "8 GB")',
    ],
    [
      { resources: { memory: 4096 } },
      'resources.memory: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got 4096)',
    ],
    [
      { resources: { storage: '-16Gi' } },
      'resources.storage: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got "-16Gi")',
    ],
    [
      { resources: { storage: true } },
      'resources.storage: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got true)',
    ],
    [
      { firmware: 'https://fw' },
      'firmware: must be an object with url and an optional digest (got "https://fw")',
    ],
    [
      { firmware: { digest: 'sha256:abc' } },
      'firmware.url: is required when firmware is given: the URL or OCI reference of the firmware image',
    ],
    [
      { firmware: { url: ' ' } },
      'firmware.url: must be a non-empty string: the URL or OCI reference of the firmware image (got " ")',
    ],
    [
      { firmware: { url: 'x', digest: 'md5:abc' } },
      'firmware.digest: must be "<algorithm>:<digest>" with algorithm sha256, sha384, sha512 and no spaces, such as "sha256:" followed by 64 hex digits (got "md5:abc")',
    ],
    [
      { firmware: { url: 'x', digest: 'sha256:' } },
      'firmware.digest: must be "<algorithm>:<digest>" with algorithm sha256, sha384, sha512 and no spaces, such as "sha256:" followed by 64 hex digits (got "sha256:")',
    ],
    [
      { firmware: { url: 'x', digest: 'abcdef' } },
      'firmware.digest: must be "<algorithm>:<digest>" with algorithm sha256, sha384, sha512 and no spaces, such as "sha256:" followed by 64 hex digits (got "abcdef")',
    ],
    [{ kvm: 'yes' }, 'kvm: must be true or false (got "yes")'],
  ])('reports %j', (parameters, line) => {
    expect(lines(parameters)).toEqual([line]);
  });

  it('reports every problem at once, in field order', () => {
    const issues = validateQemuParameters({ kvm: 1, arch: 'riscv', resources: { cpu: -1, memory: 'x' } });
    expect(issues.map((i) => i.path)).toEqual(['arch', 'resources.cpu', 'resources.memory', 'kvm']);
    expect(issues.map((i) => i.value)).toEqual(['riscv', -1, 'x', 1]);
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (parameters, drivers) => {
        validateQemuParameters(parameters, { drivers: drivers as DriverConfig[] });
        validateQemuParameters({ resources: parameters, firmware: parameters, arch: parameters });
      }),
    );
  });
});

describe('QEMU parameters › drivers in context', () => {
  const QEMU = { name: 'qemu', type: 'jumpstarter_driver_qemu.driver.Qemu' };

  it('reports a tcp driver that is not a TcpNetwork when no TcpNetwork exists', () => {
    expect(lines({}, [QEMU, { name: 'tcp', type: 'jumpstarter_driver_power.driver.QemuPower' }])).toEqual([
      'spec.template.spec.drivers[1].name: driver "tcp" (type jumpstarter_driver_power.driver.QemuPower) takes the ' +
        'name of the driver qemu.jumpstarter.dev adds for guest SSH on 127.0.0.1:2222 when the template has no ' +
        'jumpstarter_driver_network.driver.TcpNetwork driver; rename this driver, or add your own ' +
        'jumpstarter_driver_network.driver.TcpNetwork driver so none is added (got "tcp")',
    ]);
  });

  it('reports a ref whose derived name is tcp', () => {
    expect(lines({}, [QEMU, { ref: 'bridge.tcp' }])).toEqual([
      expect.stringMatching(
        /^spec\.template\.spec\.drivers\[1\]\.ref: driver "tcp" \(named after its ref bridge\.tcp\)/,
      ),
    ]);
  });

  it('accepts a tcp driver when a TcpNetwork exists elsewhere, since none is added then', () => {
    const drivers = [
      QEMU,
      { name: 'tcp', type: 'jumpstarter_driver_power.driver.QemuPower' },
      { name: 'ssh', type: 'jumpstarter_driver_network.driver.TcpNetwork' },
    ];
    expect(lines({}, drivers)).toEqual([]);
  });

  it('accepts a tcp driver that is itself a TcpNetwork', () => {
    expect(lines({}, [QEMU, { name: 'tcp', type: 'jumpstarter_driver_network.driver.TcpNetwork' }])).toEqual(
      [],
    );
  });

  it('reports parameter and driver issues together', () => {
    const issues = validateQemuParameters({ kvm: 'no' }, { drivers: [{ name: 'tcp', type: 'x.Y' }] });
    expect(issues.map((i) => i.path)).toEqual(['kvm', 'spec.template.spec.drivers[0].name']);
  });
});
