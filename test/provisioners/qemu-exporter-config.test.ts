import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import type { DriverConfig, JsonObject } from '../../lib/api';
import { formatIssue } from '../../lib/core/issue';
import {
  buildExporterConfig,
  renderExporterConfigYaml,
  tcpDriverCollisionMessage,
  type ExporterConfigInput,
} from '../../lib/provisioners';

const QEMU = 'jumpstarter_driver_qemu.driver.Qemu';
const TCP = 'jumpstarter_driver_network.driver.TcpNetwork';

function build(overrides: Partial<ExporterConfigInput> = {}) {
  return buildExporterConfig({
    name: 'rpi4-virtual-7',
    namespace: 'lab',
    endpoint: 'grpc.example:443',
    token: 'jwt',
    drivers: [{ name: 'qemu', type: QEMU }],
    parameters: {},
    ...overrides,
  });
}

/** The config of the first QEMU driver for the given parameters and driver config. */
function qemuConfig(parameters: unknown, config?: JsonObject): JsonObject {
  const { config: out, issues } = build({ parameters, drivers: [{ name: 'qemu', type: QEMU, config }] });
  expect(issues).toEqual([]);
  const entry = out.export.qemu;
  if (!('type' in entry) || !entry.config) throw new Error('qemu entry has no config');
  return entry.config;
}

describe('exporter config › document', () => {
  it('has the ExporterConfig header, endpoint, token and metadata of the Exporter', () => {
    const { config } = build();
    expect(config.apiVersion).toBe('jumpstarter.dev/v1alpha1');
    expect(config.kind).toBe('ExporterConfig');
    expect(config.metadata).toEqual({ name: 'rpi4-virtual-7', namespace: 'lab' });
    expect(config.endpoint).toBe('grpc.example:443');
    expect(config.token).toBe('jwt');
  });

  it('carries the CA bundle as base64 of the PEM text', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';
    const { config } = build({ caBundle: pem });
    expect(Buffer.from(config.tls.ca, 'base64').toString('utf8')).toBe(pem);
    expect(config.tls.ca).toBe(Buffer.from(pem).toString('base64'));
  });

  it('has an empty tls.ca without a CA bundle', () => {
    expect(build().config.tls).toEqual({ ca: '' });
  });

  it.each([
    [undefined, true],
    ['ExitAndReplace' as const, true],
    ['InPlaceReuse' as const, false],
  ])('sets exitOnLeaseEnd for recycleStrategy %s to %s', (recycleStrategy, expected) => {
    expect(build({ recycleStrategy }).config.exitOnLeaseEnd).toBe(expected);
  });
});

describe('exporter config › QEMU driver defaults', () => {
  it("writes no launcher socket (Jumpstarter 0.9.0's Qemu driver refuses the argument) and keeps a user's", () => {
    expect(qemuConfig({})).not.toHaveProperty('launcher_socket');
    expect(qemuConfig({}, { launcher_socket: '/tmp/other.sock' }).launcher_socket).toBe('/tmp/other.sock');
  });

  it('derives arch, smp, mem and disk_size from the parameters', () => {
    const config = qemuConfig({ arch: 'aarch64', resources: { cpu: 4, memory: '8Gi', storage: '16Gi' } });
    expect(config).toMatchObject({ arch: 'aarch64', smp: 4, mem: '8G', disk_size: '16G' });
  });

  it.each([
    ['512Mi', '512M'],
    ['16Gi', '16G'],
    ['2Ti', '2T'],
    ['2048Mi', '2048M'],
    ['64Ki', '64K'],
  ])('turns the binary quantity %s into the QEMU size %s', (quantity, size) => {
    const config = qemuConfig({ resources: { memory: quantity, storage: quantity } });
    expect(config.mem).toBe(size);
    expect(config.disk_size).toBe(size);
  });

  it.each([
    ['16G', '15625000K'],
    ['1.5Gi', '1536M'],
    [2 ** 31, '2G'],
    ['1500000', '1500000B'],
    ['1Pi', '1024T'],
  ])(
    'writes the other quantity form %s as its exact size %s (QEMU reads G as GiB, bare as MiB)',
    (q, size) => {
      expect(qemuConfig({ resources: { storage: q } }).disk_size).toBe(size);
    },
  );

  it('writes smp as a number for every whole-core quantity form', () => {
    expect(qemuConfig({ resources: { cpu: '4' } }).smp).toBe(4);
    expect(qemuConfig({ resources: { cpu: '2000m' } }).smp).toBe(2);
  });

  it('leaves arch, smp, mem and disk_size out when the parameters do not give them', () => {
    const config = qemuConfig({});
    for (const key of ['arch', 'smp', 'mem', 'disk_size']) expect(config).not.toHaveProperty(key);
  });

  it('skips invalid parameters instead of copying them (validation reports them)', () => {
    const config = qemuConfig({ arch: 'arm64', resources: { cpu: '500m', memory: 'lots', storage: -1 } });
    for (const key of ['arch', 'smp', 'mem', 'disk_size']) expect(config).not.toHaveProperty(key);
  });

  it('points default_partitions at AAVMF for aarch64 guests', () => {
    expect(qemuConfig({ arch: 'aarch64' }).default_partitions).toEqual({
      'OVMF_CODE.fd': '/usr/share/AAVMF/AAVMF_CODE.fd',
      'OVMF_VARS.fd': '/usr/share/AAVMF/AAVMF_VARS.fd',
    });
  });

  it.each([['x86_64'], [undefined]])('points default_partitions at OVMF for arch %s', (arch) => {
    expect(qemuConfig(arch ? { arch } : {}).default_partitions).toEqual({
      'OVMF_CODE.fd': '/usr/share/edk2/ovmf/OVMF_CODE.fd',
      'OVMF_VARS.fd': '/usr/share/edk2/ovmf/OVMF_VARS.fd',
    });
  });

  it("picks the firmware of the driver's own arch when it overrides the parameter", () => {
    const config = qemuConfig({ arch: 'x86_64' }, { arch: 'aarch64' });
    expect(config.arch).toBe('aarch64');
    expect(config.default_partitions).toMatchObject({ 'OVMF_CODE.fd': '/usr/share/AAVMF/AAVMF_CODE.fd' });
  });

  it('forwards guest SSH to 127.0.0.1:2222', () => {
    expect(qemuConfig({}).hostfwd).toEqual({ ssh: { hostaddr: '127.0.0.1', hostport: 2222, guestport: 22 } });
  });

  it('adds hostfwd.ssh next to other user forwards', () => {
    const http = { hostaddr: '127.0.0.1', hostport: 8080, guestport: 80 };
    expect(qemuConfig({}, { hostfwd: { http } }).hostfwd).toEqual({
      http,
      ssh: { hostaddr: '127.0.0.1', hostport: 2222, guestport: 22 },
    });
  });

  it('keeps every user value over the defaults', () => {
    const user: JsonObject = {
      arch: 'x86_64',
      smp: 1,
      mem: '1G',
      disk_size: '2G',
      default_partitions: { 'OVMF_CODE.fd': '/firmware/code.fd' },
      hostfwd: { ssh: { hostaddr: '0.0.0.0', hostport: 2022, guestport: 22 } },
      hostname: 'dut',
    };
    const config = qemuConfig(
      { arch: 'aarch64', resources: { cpu: 8, memory: '8Gi', storage: '64Gi' } },
      user,
    );
    expect(config).toEqual(user);
  });

  it('does not touch drivers of other types', () => {
    const serial = {
      name: 'serial',
      type: 'jumpstarter_driver_pyserial.driver.PySerial',
      config: { url: '/dev/x' },
    };
    const { config } = build({ drivers: [serial], parameters: { arch: 'aarch64' } });
    expect(config.export.serial).toEqual({ type: serial.type, config: { url: '/dev/x' } });
  });

  it('does not mutate the template driver config', () => {
    const driverConfig = { hostfwd: { http: { hostport: 8080, guestport: 80 } } };
    const snapshot = JSON.parse(JSON.stringify(driverConfig));
    build({ drivers: [{ name: 'qemu', type: QEMU, config: driverConfig }], parameters: { arch: 'x86_64' } });
    expect(driverConfig).toEqual(snapshot);
  });
});

describe('exporter config › export map', () => {
  it('adds a tcp TcpNetwork driver for SSH when there is none, after the template drivers', () => {
    const { config, issues } = build();
    expect(issues).toEqual([]);
    expect(Object.keys(config.export)).toEqual(['qemu', 'tcp']);
    expect(config.export.tcp).toEqual({ type: TCP, config: { host: '127.0.0.1', port: 2222 } });
  });

  it('adds no tcp driver when a TcpNetwork driver exists under another name', () => {
    const { config, issues } = build({
      drivers: [
        { name: 'qemu', type: QEMU },
        { name: 'ssh', type: TCP, config: { host: '127.0.0.1', port: 22 } },
      ],
    });
    expect(issues).toEqual([]);
    expect(Object.keys(config.export)).toEqual(['qemu', 'ssh']);
  });

  it("keeps the user's own tcp TcpNetwork driver as it is", () => {
    const tcp = { name: 'tcp', type: TCP, config: { port: 22 } };
    const { config, issues } = build({ drivers: [{ name: 'qemu', type: QEMU }, tcp] });
    expect(issues).toEqual([]);
    expect(config.export.tcp).toEqual({ type: TCP, config: { port: 22 } });
  });

  it('reports a user driver named tcp that is not a TcpNetwork, and adds nothing over it', () => {
    const power = { name: 'tcp', type: 'jumpstarter_driver_power.driver.QemuPower' };
    const { config, issues } = build({ drivers: [{ name: 'qemu', type: QEMU }, power] });
    expect(issues.map(formatIssue)).toEqual([
      'spec.template.spec.drivers[1].name: driver "tcp" (type jumpstarter_driver_power.driver.QemuPower) takes ' +
        'the name of the driver qemu.jumpstarter.dev adds for guest SSH on 127.0.0.1:2222 when the template ' +
        'has no jumpstarter_driver_network.driver.TcpNetwork driver; rename this driver, or add your own ' +
        'jumpstarter_driver_network.driver.TcpNetwork driver so none is added (got "tcp")',
    ]);
    expect(config.export.tcp).toEqual({ type: power.type });
  });

  it('reports a collision whose name is derived from the driver package', () => {
    const derived: DriverConfig = { type: 'jumpstarter_driver_tcp.driver.Tcp' };
    const { issues } = build({ drivers: [derived] });
    expect(issues).toEqual([
      {
        path: 'spec.template.spec.drivers[0].type',
        value: 'jumpstarter_driver_tcp.driver.Tcp',
        message: tcpDriverCollisionMessage(derived),
      },
    ]);
    expect(issues[0].message).toContain(
      'driver "tcp" (named after its type jumpstarter_driver_tcp.driver.Tcp)',
    );
  });

  it('derives missing names from the driver package, and from the last segment of a ref', () => {
    const { config, issues } = build({
      drivers: [
        { type: QEMU },
        { type: 'jumpstarter_driver_power.driver.QemuPower' },
        { type: 'custom_pkg.driver.Thing', config: { a: 1 } },
        { ref: 'qemu.console' },
      ],
    });
    expect(issues).toEqual([]);
    expect(Object.keys(config.export)).toEqual(['qemu', 'power', 'custom_pkg', 'console', 'tcp']);
    expect(config.export.custom_pkg).toEqual({ type: 'custom_pkg.driver.Thing', config: { a: 1 } });
    expect(config.export.console).toEqual({ ref: 'qemu.console' });
  });

  it('writes a ref driver as {ref} only', () => {
    const { config } = build({ drivers: [{ name: 'serial', ref: 'qemu.console' }] });
    expect(config.export.serial).toEqual({ ref: 'qemu.console' });
  });

  it('reports duplicate names after derivation and keeps the first', () => {
    const { config, issues } = build({
      drivers: [
        { type: 'jumpstarter_driver_power.driver.QemuPower' },
        { name: 'power', type: 'jumpstarter_driver_power.driver.MockPower' },
      ],
    });
    expect(issues.map(formatIssue)).toEqual([
      'spec.template.spec.drivers[1].name: driver names must be unique (a missing name is derived from the driver package) (got "power")',
    ]);
    expect(config.export.power).toEqual({ type: 'jumpstarter_driver_power.driver.QemuPower' });
  });

  it.each([
    [{ name: 'x' }, 'spec.template.spec.drivers[0]', 'either type or ref must be set'],
    [
      { name: 'x', type: QEMU, ref: 'a.b' },
      'spec.template.spec.drivers[0]',
      'type and ref are mutually exclusive',
    ],
    [
      { name: 'x', ref: 'a.b', config: {} },
      'spec.template.spec.drivers[0].config',
      'ref entries must not have config',
    ],
    [
      { name: '', type: QEMU },
      'spec.template.spec.drivers[0].name',
      'name must not be empty (omit it to derive the name from the driver package)',
    ],
  ])('reports the malformed driver %j with the admission message', (driver, path, message) => {
    const { config, issues } = build({ drivers: [driver as DriverConfig] });
    expect(issues.map(({ path: p, message: m }) => ({ path: p, message: m }))).toEqual([{ path, message }]);
    expect(Object.keys(config.export)).toEqual(['tcp']);
  });

  it('never throws on drivers of the wrong shape', () => {
    for (const drivers of [
      null,
      'qemu',
      [null],
      [42],
      [{ type: 7 }],
      [{ name: 3, type: QEMU }],
      [{ type: QEMU, config: [] }],
    ]) {
      expect(() => build({ drivers: drivers as unknown as DriverConfig[] })).not.toThrow();
      expect(build({ drivers: drivers as unknown as DriverConfig[] }).issues.length).toBeGreaterThan(0);
    }
  });

  it('keeps a __proto__ key in a driver config as data', () => {
    const driverConfig = JSON.parse('{"__proto__": {"polluted": true}}') as JsonObject;
    const { config } = build({ drivers: [{ name: 'x', type: 'pkg.X', config: driverConfig }] });
    const entry = config.export.x as { config: JsonObject };
    expect(Object.keys(entry.config)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('exporter config › YAML', () => {
  it('round-trips through YAML 1.1 and 1.2 parsers', () => {
    const { config } = build({
      caBundle: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n',
      drivers: [
        { name: 'qemu', type: QEMU, config: { hostname: 'on', password: 'no' } },
        { name: 'serial', ref: 'qemu.console' },
      ],
      parameters: { arch: 'aarch64', resources: { cpu: 2, memory: '2Gi', storage: '8Gi' } },
    });
    const text = renderExporterConfigYaml(config);
    expect(parse(text, { version: '1.1' })).toEqual(config);
    expect(parse(text)).toEqual(config);
  });

  it('quotes strings that a YAML 1.1 loader would read as booleans', () => {
    const { config } = build({ drivers: [{ name: 'qemu', type: QEMU, config: { hostname: 'yes' } }] });
    expect(renderExporterConfigYaml(config)).toContain('hostname: "yes"');
  });

  it('writes the document header first', () => {
    const text = renderExporterConfigYaml(build().config);
    expect(text.startsWith('apiVersion: jumpstarter.dev/v1alpha1\nkind: ExporterConfig\n')).toBe(true);
  });
});
