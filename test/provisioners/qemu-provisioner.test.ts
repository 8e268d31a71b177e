import { describe, expect, it } from '@jest/globals';
import { Pod as KubePod } from 'kubernetes-models/v1/Pod';
import { Secret as KubeSecret } from 'kubernetes-models/v1/Secret';
import { parse } from 'yaml';
import { formatIssue, ValidationError } from '../../lib/core/issue';
import { qemuProvisioner, type RenderedPod, type RenderedSecret } from '../../lib/provisioners';
import { exporter, instance, qemuSet } from './fixtures';

function renderError(input: Parameters<typeof instance>[0]): ValidationError {
  try {
    qemuProvisioner.render(instance(input));
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('render did not throw');
}

describe('qemu provisioner › render', () => {
  it('renders the config Secret, then the Pod', () => {
    const { objects } = qemuProvisioner.render(instance());
    expect(objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`)).toEqual([
      'Secret/exporter-config-rpi4-virtual-7',
      'Pod/rpi4-virtual-7',
    ]);
  });

  it('renders objects the Kubernetes schemas accept', () => {
    const { objects } = qemuProvisioner.render(instance());
    expect(() => new KubeSecret(objects[0] as never).validate()).not.toThrow();
    expect(() => new KubePod(objects[1] as never).validate()).not.toThrow();
  });

  it('writes the exporter config into an owned, labelled Opaque Secret as base64 data', () => {
    const secret = qemuProvisioner.render(instance({ caBundle: 'PEM' }))
      .objects[0] as unknown as RenderedSecret;
    expect(secret.type).toBe('Opaque');
    expect(secret.metadata).toEqual({
      name: 'exporter-config-rpi4-virtual-7',
      namespace: 'lab',
      labels: { 'exporterset.jumpstarter.dev/name': 'rpi4-virtual' },
      ownerReferences: [
        {
          apiVersion: 'jumpstarter.dev/v1alpha1',
          kind: 'Exporter',
          name: 'rpi4-virtual-7',
          uid: 'exp-uid-7',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(Object.keys(secret.data)).toEqual(['config.yaml']);
    const config = parse(Buffer.from(secret.data['config.yaml'], 'base64').toString('utf8'));
    expect(config).toMatchObject({
      kind: 'ExporterConfig',
      metadata: { name: 'rpi4-virtual-7', namespace: 'lab' },
      endpoint: 'grpc.jumpstarter.example:443',
      token: 'jwt-token',
      tls: { ca: Buffer.from('PEM').toString('base64') },
      exitOnLeaseEnd: true,
    });
    expect(config.export.qemu.config).toMatchObject({ smp: 4, mem: '4G', disk_size: '16G' });
    expect(config.export.tcp.type).toBe('jumpstarter_driver_network.driver.TcpNetwork');
  });

  it('sizes the Pod from the merged parameters it is given', () => {
    const pod = qemuProvisioner.render(instance({ parameters: { resources: { storage: '32Gi' } } }))
      .objects[1] as unknown as RenderedPod;
    expect(pod.spec.volumes[0]).toEqual({ name: 'shared', emptyDir: { sizeLimit: '32868Mi' } });
  });

  it('is deterministic', () => {
    expect(qemuProvisioner.render(instance())).toEqual(qemuProvisioner.render(instance()));
  });

  it('refuses invalid merged parameters, with paths under parameters', () => {
    const error = renderError({ parameters: { resources: { cpu: '1.5' } } });
    expect(error.message.split('\n')[0]).toBe(
      'instance lab/rpi4-virtual-7 of ExporterSet rpi4-virtual is invalid:',
    );
    expect(error.issues.map(formatIssue)).toEqual([
      'parameters.resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got "1.5")',
    ]);
  });

  it('refuses a template whose tcp driver would collide with the added one', () => {
    const set = qemuSet({}, [{ name: 'tcp', type: 'jumpstarter_driver_power.driver.QemuPower' }]);
    expect(renderError({ exporterSet: set }).issues.map((i) => i.path)).toEqual([
      'spec.template.spec.drivers[0].name',
    ]);
  });

  it('refuses an Exporter without uid, endpoint or token', () => {
    const bare = { ...exporter(), metadata: { name: 'rpi4-virtual-7', namespace: 'lab' }, status: {} };
    expect(renderError({ exporter: bare, token: '' }).issues.map((i) => i.path)).toEqual([
      'exporter.metadata.uid',
      'exporter.status.endpoint',
      'token',
    ]);
  });
});

describe('qemu provisioner › identity', () => {
  it('is named qemu.jumpstarter.dev', () => {
    expect(qemuProvisioner.name).toBe('qemu.jumpstarter.dev');
  });

  it('validates with the same rules as validateQemuParameters', () => {
    expect(qemuProvisioner.validate({ kvm: 'maybe' }).map((i) => i.path)).toEqual(['kvm']);
  });
});
