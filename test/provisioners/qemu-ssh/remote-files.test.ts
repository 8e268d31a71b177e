import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { ValidationError } from '../../../lib/core/issue';
import { instanceOfRemoteFile, remoteLayout, renderRemoteFiles } from '../../../lib/provisioners';
import { exporter, qemuSet } from '../fixtures';
import { sshClass, sshInstance, sshParameters } from './fixtures';

const byPath = (instance = sshInstance()) =>
  Object.fromEntries(renderRemoteFiles(instance).files.map((f) => [f.path, f]));

describe('qemu-ssh remote files › layout', () => {
  it('puts the config under /etc/jumpstarter/exporters and the units under /etc/containers/systemd', () => {
    const files = renderRemoteFiles(sshInstance()).files;
    expect(files.map((f) => [f.path, f.mode.toString(8)])).toEqual([
      ['/etc/jumpstarter/exporters/jumpstarter.lab.rpi4-virtual-7.yaml', '644'],
      ['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7.volume', '644'],
      ['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-runtime.container', '644'],
      ['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-exporter.container', '644'],
    ]);
  });

  it('names files by namespace and Exporter, so equal set names in two namespaces never collide', () => {
    const a = remoteLayout('team-a', 'pool-0');
    const b = remoteLayout('team-b', 'pool-0');
    expect(a.base).not.toBe(b.base);
    expect(instanceOfRemoteFile('jumpstarter.team-a.pool-0-exporter.container')).toEqual({
      namespace: 'team-a',
      name: 'pool-0',
    });
    // A dotted Exporter name splits back at the namespace's end (a namespace has no dots).
    expect(instanceOfRemoteFile('jumpstarter.ns.my.pool-1.volume')).toEqual({
      namespace: 'ns',
      name: 'my.pool-1',
    });
    expect(instanceOfRemoteFile('jumpstarter.ns.pool-1.yaml')).toEqual({ namespace: 'ns', name: 'pool-1' });
    for (const notOurs of [
      'other.container',
      'jumpstarter.x.container',
      'jumpstarter.ns.volume',
      'foo.ns.a.yaml',
    ]) {
      expect(instanceOfRemoteFile(notOurs)).toBeUndefined();
    }
  });
});

describe('qemu-ssh remote files › exporter config', () => {
  it("is the QEMU provisioner's config: QEMU defaults, storage.size as disk, tcp driver on 2222", () => {
    const config = parse(byPath()['/etc/jumpstarter/exporters/jumpstarter.lab.rpi4-virtual-7.yaml']!.content);
    expect(config.metadata).toEqual({ name: 'rpi4-virtual-7', namespace: 'lab' });
    expect(config.token).toBe('jwt-token');
    expect(config.endpoint).toBe('grpc.jumpstarter.example:443');
    expect(config.export.qemu.config).toMatchObject({
      arch: 'aarch64',
      smp: 4,
      mem: '4G',
      disk_size: '16G',
      hostfwd: { ssh: { hostaddr: '127.0.0.1', hostport: 2222, guestport: 22 } },
    });
    expect(config.export.tcp).toEqual({
      type: 'jumpstarter_driver_network.driver.TcpNetwork',
      config: { host: '127.0.0.1', port: 2222 },
    });
  });
});

describe('qemu-ssh remote files › quadlet units', () => {
  it('runtime: class image, /dev/kvm and runtime.devices, shared volume at /shared, managed-by label', () => {
    const runtime =
      byPath()['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-runtime.container']!.content;
    expect(runtime.split('\n')).toEqual(
      expect.arrayContaining([
        '[Container]',
        'ContainerName=jumpstarter.lab.rpi4-virtual-7-runtime',
        'Image=quay.io/jumpstarter-dev/virtual/qemu-runtime:latest',
        'Pull=missing',
        'Volume=jumpstarter.lab.rpi4-virtual-7.volume:/shared',
        'AddDevice=/dev/kvm',
        'AddDevice=/dev/vhost-net',
        'Label=managed-by=jumpstarter',
        'Label=jumpstarter.dev/namespace=lab',
        'Label=jumpstarter.dev/exporter=rpi4-virtual-7',
        'Environment=JUMPSTARTER_EXEC_LOG_FIELDS=component=exporter,exporter=rpi4-virtual-7,namespace=lab',
      ]),
    );
  });

  it('no /dev/kvm without runtime.kvm', () => {
    const parameters = { hosts: [{ name: 'h' }] };
    const runtime = byPath(sshInstance({ virtualTargetClass: sshClass(parameters) }))[
      '/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-runtime.container'
    ]!.content;
    expect(runtime).not.toContain('AddDevice');
  });

  it("exporter: jmp run on the mounted config, non-root, in the runtime's network, after the runtime", () => {
    const unit =
      byPath()['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-exporter.container']!.content;
    expect(unit.split('\n')).toEqual(
      expect.arrayContaining([
        'Requires=jumpstarter.lab.rpi4-virtual-7-runtime.service',
        'After=jumpstarter.lab.rpi4-virtual-7-runtime.service',
        'Image=quay.io/jumpstarter-dev/jumpstarter:latest',
        'Exec=jmp run --exporter-config /etc/jumpstarter/exporters/config.yaml',
        'User=65532',
        'Network=container:jumpstarter.lab.rpi4-virtual-7-runtime',
        'Volume=jumpstarter.lab.rpi4-virtual-7.volume:/shared',
        'Volume=/etc/jumpstarter/exporters/jumpstarter.lab.rpi4-virtual-7.yaml:/etc/jumpstarter/exporters/config.yaml:ro',
        'Environment=JUMPSTARTER_LAUNCHER_SOCKET=/shared/launcher.sock',
        'Label=managed-by=jumpstarter',
      ]),
    );
  });

  it('volume: named after the instance, labelled', () => {
    const unit = byPath()['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7.volume']!.content;
    expect(unit).toContain(
      '[Volume]\nVolumeName=jumpstarter.lab.rpi4-virtual-7\nLabel=managed-by=jumpstarter\n',
    );
  });

  it('takes images and pull policy from the set over the class, like the QEMU Pod', () => {
    const set = qemuSet({
      images: { runtime: { image: 'registry.example/rt:1', imagePullPolicy: 'Always' } },
    });
    const files = byPath(sshInstance({ exporterSet: set }));
    const runtime =
      files['/etc/containers/systemd/jumpstarter.lab.rpi4-virtual-7-runtime.container']!.content;
    expect(runtime).toContain('Image=registry.example/rt:1\nPull=always\n');
  });
});

describe('qemu-ssh remote files › refusals', () => {
  it('refuses invalid parameters, a missing endpoint and token, and an image that would break a unit', () => {
    const set = qemuSet({ images: { exporter: { image: 'evil\nExecStartPre=/bin/sh' } } });
    const noEndpoint = { ...exporter(), status: {} };
    let error: unknown;
    try {
      renderRemoteFiles(
        sshInstance({
          exporterSet: set,
          exporter: noEndpoint,
          token: '',
          parameters: { ...sshParameters, hosts: [] },
        }),
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
      'parameters.hosts',
      'exporter.status.endpoint',
      'token',
      'images.exporter.image',
    ]);
  });
});
