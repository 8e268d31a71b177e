import { describe, expect, it } from '@jest/globals';
import { Pod as KubePod } from 'kubernetes-models/v1/Pod';
import { Secret as KubeSecret } from 'kubernetes-models/v1/Secret';
import { parse } from 'yaml';
import { formatIssue, ValidationError } from '../../lib/core/issue';
import {
  corelliumProvisioner,
  type RenderedContainer,
  type RenderedPod,
  type RenderedSecret,
} from '../../lib/provisioners';
import { restrictedViolations } from '../security/pod-security';
import { PROJECT_ID, corelliumClass, corelliumInstance, corelliumSet } from './corellium-fixtures';

type Input = Parameters<typeof corelliumInstance>[0];

function render(input: Input = {}) {
  const [secret, pod] = corelliumProvisioner.render(corelliumInstance(input)).objects;
  return { secret: secret as unknown as RenderedSecret, pod: pod as unknown as RenderedPod };
}

function config(input: Input = {}): any {
  return parse(Buffer.from(render(input).secret.data['config.yaml'], 'base64').toString('utf8'));
}

function renderError(input: Input): ValidationError {
  try {
    corelliumProvisioner.render(corelliumInstance(input));
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('render did not throw');
}

const allContainers = (pod: RenderedPod): RenderedContainer[] => [
  ...pod.spec.initContainers,
  ...pod.spec.containers,
];

describe('corellium provisioner › Pod shape', () => {
  it('renders the config Secret, then the Pod, both accepted by the Kubernetes schemas', () => {
    const { objects } = corelliumProvisioner.render(corelliumInstance());
    expect(objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`)).toEqual([
      'Secret/exporter-config-rpi4-virtual-7',
      'Pod/rpi4-virtual-7',
    ]);
    expect(() => new KubeSecret(objects[0] as never).validate()).not.toThrow();
    expect(() => new KubePod(objects[1] as never).validate()).not.toThrow();
  });

  it('has the exporter container alone: no runtime sidecar, no launcher init, no shared volume', () => {
    const { pod } = render();
    expect(pod.spec.initContainers).toEqual([]);
    expect(pod.spec.containers.map((c) => c.name)).toEqual(['exporter']);
    expect(pod.spec.volumes).toEqual([
      { name: 'exporter-config', secret: { secretName: 'exporter-config-rpi4-virtual-7' } },
    ]);
    const [exporter] = pod.spec.containers;
    expect(exporter).toEqual({
      name: 'exporter',
      image: 'quay.io/jumpstarter-dev/jumpstarter:latest',
      imagePullPolicy: 'IfNotPresent',
      command: ['jmp', 'run', '--exporter-config', '/etc/jumpstarter/exporters/config.yaml'],
      env: [
        { name: 'CORELLIUM_API_HOST', value: 'app.corellium.com' },
        {
          name: 'CORELLIUM_API_TOKEN',
          valueFrom: { secretKeyRef: { name: 'corellium-creds', key: 'token' } },
        },
      ],
      securityContext: {
        runAsUser: 65532,
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      },
      volumeMounts: [{ name: 'exporter-config', mountPath: '/etc/jumpstarter/exporters', readOnly: true }],
    });
  });

  it('keeps no runtime container even when the class names a runtime image', () => {
    const { pod } = render({
      virtualTargetClass: corelliumClass({ images: { runtime: { image: 'registry.lab/runtime:1' } } }),
    });
    expect(allContainers(pod).map((c) => c.name)).toEqual(['exporter']);
    expect(JSON.stringify(pod)).not.toContain('registry.lab/runtime:1');
  });

  it('is named after the Exporter, owned by it, never restarts, and meets Pod Security "restricted"', () => {
    const { pod } = render();
    expect(pod.metadata).toEqual({
      name: 'rpi4-virtual-7',
      namespace: 'lab',
      labels: { board: 'kronos', virtual: 'true', 'exporterset.jumpstarter.dev/name': 'kronos-cloud' },
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
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
    expect(restrictedViolations(pod)).toEqual([]);
  });

  it('takes the class scheduling and the exporter image of the class or set', () => {
    const { pod } = render({
      virtualTargetClass: corelliumClass({
        scheduling: {
          nodeSelector: { zone: 'a' },
          tolerations: [{ key: 'cloud', operator: 'Exists' }],
          priorityClassName: 'lab',
        },
        images: { exporter: { image: 'registry.lab/jumpstarter:1', imagePullPolicy: 'Always' } },
      }),
    });
    expect(pod.spec).toMatchObject({
      nodeSelector: { zone: 'a' },
      tolerations: [{ key: 'cloud', operator: 'Exists' }],
      priorityClassName: 'lab',
    });
    expect(pod.spec.containers[0]).toMatchObject({
      image: 'registry.lab/jumpstarter:1',
      imagePullPolicy: 'Always',
    });
  });

  it('does not copy template annotations that loosen confinement', () => {
    const set = corelliumSet();
    const loosened = corelliumSet({
      template: {
        ...set.spec.template,
        metadata: {
          labels: { board: 'kronos' },
          annotations: { team: 'cloud', 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' },
        },
      },
    });
    expect(render({ exporterSet: loosened }).pod.metadata.annotations).toEqual({ team: 'cloud' });
  });

  it('is deterministic', () => {
    expect(corelliumProvisioner.render(corelliumInstance())).toEqual(
      corelliumProvisioner.render(corelliumInstance()),
    );
  });
});

describe('corellium provisioner › credential isolation', () => {
  it('hands the credentials Secret to the exporter container alone, by key reference', () => {
    const { pod } = render();
    const holders = allContainers(pod).filter((c) => JSON.stringify(c).includes('corellium-creds'));
    expect(holders.map((c) => c.name)).toEqual(['exporter']);
    expect(pod.spec.containers[0]).not.toHaveProperty('envFrom');
    // Only the Secret's `token` key, not the whole Secret as environment.
    expect(JSON.stringify(pod).match(/corellium-creds/g)).toHaveLength(1);
  });

  it('never mounts the credentials Secret as a volume', () => {
    const { pod } = render();
    expect(JSON.stringify(pod.spec.volumes)).not.toContain('corellium-creds');
  });

  it('keeps the credentials Secret out of the config Secret, which carries only the Exporter token', () => {
    const { secret } = render();
    const text = Buffer.from(secret.data['config.yaml'], 'base64').toString('utf8');
    expect(text).not.toContain('corellium-creds');
    expect(text).not.toMatch(/CORELLIUM_API_TOKEN|api_token|apiToken/);
    expect(parse(text).token).toBe('jwt-token');
  });

  it('refuses a class without credentials, saying which Secret key to create', () => {
    const error = renderError({ virtualTargetClass: corelliumClass({ credentialsSecretRef: undefined }) });
    expect(error.issues.map(formatIssue)).toEqual([
      'virtualTargetClass.spec.credentialsSecretRef: a corellium.jumpstarter.dev class needs credentialsSecretRef ' +
        'naming a Secret whose key "token" holds the Corellium API token; create the Secret and reference it ' +
        'from the class',
    ]);
  });
});

describe('corellium provisioner › exporter config', () => {
  it('adds a Corellium driver configured from the parameters, named device after the instance', () => {
    const c = config();
    expect(c).toMatchObject({
      kind: 'ExporterConfig',
      metadata: { name: 'rpi4-virtual-7', namespace: 'lab' },
      endpoint: 'grpc.jumpstarter.example:443',
      token: 'jwt-token',
      exitOnLeaseEnd: true,
    });
    expect(c.export).toEqual({
      corellium: {
        type: 'jumpstarter_driver_corellium.driver.Corellium',
        config: {
          device_name: 'rpi4-virtual-7',
          project_id: PROJECT_ID,
          device_flavor: 'kronos',
          device_os: '1.1.1',
          device_build: 'Critical Application Monitor (Baremetal)',
        },
      },
    });
  });

  it('leaves out the optional os and build when the parameters do not give them', () => {
    const c = config({
      parameters: { api: { host: 'app.corellium.com', projectId: PROJECT_ID }, device: { flavor: 'kronos' } },
    });
    expect(c.export.corellium.config).toEqual({
      device_name: 'rpi4-virtual-7',
      project_id: PROJECT_ID,
      device_flavor: 'kronos',
    });
  });

  it("fills the template's own Corellium driver, keeping its values but never its device name", () => {
    const set = corelliumSet({}, [
      {
        name: 'rd1ae',
        type: 'jumpstarter_driver_corellium.driver.Corellium',
        config: { device_flavor: 'rd1ae', device_name: 'shared-device', extra: 1 },
      },
      { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { host: '10.0.0.1', port: 22 } },
    ]);
    const c = config({ exporterSet: set });
    expect(Object.keys(c.export)).toEqual(['rd1ae', 'network']);
    expect(c.export.rd1ae.config).toEqual({
      device_flavor: 'rd1ae',
      device_name: 'rpi4-virtual-7',
      extra: 1,
      project_id: PROJECT_ID,
      device_os: '1.1.1',
      device_build: 'Critical Application Monitor (Baremetal)',
    });
  });

  it('adds no TcpNetwork driver: the device runs in the cloud, not beside the exporter', () => {
    expect(Object.keys(config().export)).toEqual(['corellium']);
  });

  it('reports a template driver that would take the name of the added Corellium driver', () => {
    const set = corelliumSet({}, [{ name: 'corellium', type: 'jumpstarter_driver_power.driver.MockPower' }]);
    const error = renderError({ exporterSet: set });
    expect(error.issues.map(formatIssue)).toEqual([
      'spec.template.spec.drivers[0].name: driver "corellium" (type jumpstarter_driver_power.driver.MockPower) ' +
        'takes the name of the driver corellium.jumpstarter.dev adds to create the cloud device when the ' +
        'template has no jumpstarter_driver_corellium.driver.Corellium driver; rename this driver, or add ' +
        'your own jumpstarter_driver_corellium.driver.Corellium driver so none is added (got "corellium")',
    ]);
  });

  it('writes exitOnLeaseEnd false for InPlaceReuse', () => {
    expect(config({ exporterSet: corelliumSet({ recycleStrategy: 'InPlaceReuse' }) }).exitOnLeaseEnd).toBe(
      false,
    );
  });
});

describe('corellium provisioner › render refusals', () => {
  it('refuses invalid merged parameters, with paths under parameters and every problem at once', () => {
    const error = renderError({ parameters: { api: { host: 'https://app.corellium.com/' }, device: {} } });
    expect(error.message.split('\n')[0]).toBe(
      'instance lab/rpi4-virtual-7 of ExporterSet kronos-cloud is invalid:',
    );
    expect(error.issues.map((i) => i.path)).toEqual([
      'parameters.api.host',
      'parameters.api.projectId',
      'parameters.device.flavor',
    ]);
  });

  it('waits for the endpoint and the token as the QEMU provisioner does', () => {
    const base = corelliumInstance();
    const error = renderError({ exporter: { ...base.exporter, status: {} }, token: '' });
    expect(error.issues.map((i) => i.path)).toEqual(['exporter.status.endpoint', 'token']);
  });
});
