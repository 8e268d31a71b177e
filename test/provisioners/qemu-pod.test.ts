import { describe, expect, it } from '@jest/globals';
import { buildQemuPod, type RenderedContainer, type RenderedPod } from '../../lib/provisioners';
import { exporter, instance, qemuClass, qemuSet } from './fixtures';

function pod(overrides: Parameters<typeof instance>[0] = {}): RenderedPod {
  return buildQemuPod(instance(overrides));
}

function container(p: RenderedPod, name: string): RenderedContainer {
  const found = [...p.spec.initContainers, ...p.spec.containers].find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name}`);
  return found;
}

describe('QEMU pod › metadata', () => {
  it('is named after the Exporter, in its namespace', () => {
    const p = pod();
    expect(p.apiVersion).toBe('v1');
    expect(p.kind).toBe('Pod');
    expect(p.metadata.name).toBe('rpi4-virtual-7');
    expect(p.metadata.namespace).toBe('lab');
  });

  it('carries the template labels and annotations plus the set name label', () => {
    const p = pod();
    expect(p.metadata.labels).toEqual({
      board: 'rpi4',
      virtual: 'true',
      'exporterset.jumpstarter.dev/name': 'rpi4-virtual',
    });
    expect(p.metadata.annotations).toEqual({ team: 'kernel' });
  });

  it('copies the template revision label from the Exporter when it has one', () => {
    const p = pod({ exporter: exporter({ 'exporterset.jumpstarter.dev/template-revision': 'abc123' }) });
    expect(p.metadata.labels['exporterset.jumpstarter.dev/template-revision']).toBe('abc123');
  });

  it('does not let a template label override the set name label', () => {
    const set = qemuSet();
    const hijack = qemuSet({
      template: {
        ...set.spec.template,
        metadata: { labels: { 'exporterset.jumpstarter.dev/name': 'other' } },
      },
    });
    expect(pod({ exporterSet: hijack }).metadata.labels['exporterset.jumpstarter.dev/name']).toBe(
      'rpi4-virtual',
    );
  });

  it('does not copy template annotations that set AppArmor or seccomp profiles', () => {
    const set = qemuSet();
    const loosened = qemuSet({
      template: {
        ...set.spec.template,
        metadata: {
          labels: { board: 'rpi4' },
          annotations: {
            team: 'kernel',
            'container.apparmor.security.beta.kubernetes.io/target-runtime': 'unconfined',
            'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
            'container.seccomp.security.alpha.kubernetes.io/exporter': 'unconfined',
          },
        },
      },
    });
    expect(pod({ exporterSet: loosened }).metadata.annotations).toEqual({ team: 'kernel' });
  });

  it('leaves annotations out when the template has none', () => {
    const set = qemuSet();
    const bare = qemuSet({ template: { ...set.spec.template, metadata: { labels: { board: 'rpi4' } } } });
    expect(pod({ exporterSet: bare }).metadata).not.toHaveProperty('annotations');
  });

  it('is controller-owned by the Exporter', () => {
    expect(pod().metadata.ownerReferences).toEqual([
      {
        apiVersion: 'jumpstarter.dev/v1alpha1',
        kind: 'Exporter',
        name: 'rpi4-virtual-7',
        uid: 'exp-uid-7',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });
});

describe('QEMU pod › containers', () => {
  it('never restarts, so an exporter exiting at lease end completes the Pod', () => {
    expect(pod().spec.restartPolicy).toBe('Never');
  });

  it('confines every container with the runtime default seccomp profile', () => {
    expect(pod().spec.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
  });

  it('runs the copy init container first, then the runtime sidecar, then the exporter', () => {
    const p = pod();
    expect(p.spec.initContainers.map((c) => c.name)).toEqual(['copy-jumpstarter-exec', 'target-runtime']);
    expect(p.spec.containers.map((c) => c.name)).toEqual(['exporter']);
  });

  it('copies the launcher binary from the exporter image onto the shared volume, once', () => {
    const c = container(pod(), 'copy-jumpstarter-exec');
    expect(c.image).toBe('quay.io/jumpstarter-dev/jumpstarter:latest');
    expect(c.command).toEqual(['cp', '/jumpstarter/bin/jumpstarter-exec', '/shared/jumpstarter-exec']);
    expect(c).not.toHaveProperty('restartPolicy');
    expect(c.volumeMounts).toEqual([{ name: 'shared', mountPath: '/shared' }]);
    expect(c.securityContext).toEqual({
      runAsUser: 65532,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('runs the QEMU runtime as a native sidecar, as root, with log fields naming the instance', () => {
    const c = container(pod(), 'target-runtime');
    expect(c.restartPolicy).toBe('Always');
    expect(c.image).toBe('quay.io/jumpstarter-dev/virtual/qemu-runtime:latest');
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.command).toBeUndefined();
    expect(c.env).toEqual([
      {
        name: 'JUMPSTARTER_EXEC_LOG_FIELDS',
        value: 'component=exporter,exporter=rpi4-virtual-7,namespace=lab',
      },
    ]);
    expect(c.securityContext).toEqual({ runAsUser: 0, runAsNonRoot: false });
    expect(c.volumeMounts).toEqual([{ name: 'shared', mountPath: '/shared' }]);
  });

  it("gives the runtime sidecar the class's scheduling resources, and only it", () => {
    const resources = { limits: { 'devices.kubevirt.io/kvm': '1' }, requests: { cpu: '4', memory: '5Gi' } };
    const p = pod({ virtualTargetClass: qemuClass({ scheduling: { resources } }) });
    expect(container(p, 'target-runtime').resources).toEqual(resources);
    expect(container(p, 'exporter').resources).toBeUndefined();
    expect(container(p, 'copy-jumpstarter-exec').resources).toBeUndefined();
  });

  it('runs jmp with the mounted config, the launcher socket and a restricted security context', () => {
    const c = container(pod(), 'exporter');
    expect(c.image).toBe('quay.io/jumpstarter-dev/jumpstarter:latest');
    expect(c.imagePullPolicy).toBe('IfNotPresent');
    expect(c.command).toEqual(['jmp', 'run', '--exporter-config', '/etc/jumpstarter/exporters/config.yaml']);
    expect(c.env).toEqual([{ name: 'JUMPSTARTER_LAUNCHER_SOCKET', value: '/shared/launcher.sock' }]);
    expect(c.securityContext).toEqual({
      runAsUser: 65532,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.volumeMounts).toEqual([
      { name: 'shared', mountPath: '/shared' },
      { name: 'exporter-config', mountPath: '/etc/jumpstarter/exporters', readOnly: true },
    ]);
  });

  it('injects the class credentials into the exporter container only', () => {
    const p = pod({ virtualTargetClass: qemuClass({ credentialsSecretRef: { name: 'lab-creds' } }) });
    expect(container(p, 'exporter').envFrom).toEqual([{ secretRef: { name: 'lab-creds' } }]);
    expect(container(p, 'target-runtime').envFrom).toBeUndefined();
    expect(container(p, 'copy-jumpstarter-exec').envFrom).toBeUndefined();
  });

  it('has no envFrom without credentials', () => {
    expect(container(pod(), 'exporter')).not.toHaveProperty('envFrom');
  });
});

describe('QEMU pod › volumes', () => {
  it('has the shared emptyDir and the config Secret of this Exporter', () => {
    expect(pod().spec.volumes).toEqual([
      { name: 'shared', emptyDir: { sizeLimit: '16484Mi' } },
      { name: 'exporter-config', secret: { secretName: 'exporter-config-rpi4-virtual-7' } },
    ]);
  });

  it('mounts the shared volume at /shared in all three containers', () => {
    const p = pod();
    for (const c of [...p.spec.initContainers, ...p.spec.containers]) {
      expect(c.volumeMounts).toContainEqual({ name: 'shared', mountPath: '/shared' });
    }
  });

  it('mounts the config Secret in the exporter container only', () => {
    const p = pod();
    const mounting = [...p.spec.initContainers, ...p.spec.containers].filter((c) =>
      c.volumeMounts.some((m) => m.name === 'exporter-config'),
    );
    expect(mounting.map((c) => c.name)).toEqual(['exporter']);
  });
});

describe('QEMU pod › scheduling', () => {
  it('takes nodeSelector and tolerations from the class', () => {
    const scheduling = {
      nodeSelector: { 'kubernetes.io/arch': 'arm64' },
      tolerations: [{ key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' }],
    };
    const p = pod({ virtualTargetClass: qemuClass({ scheduling }) });
    expect(p.spec.nodeSelector).toEqual({ 'kubernetes.io/arch': 'arm64' });
    expect(p.spec.tolerations).toEqual(scheduling.tolerations);
  });

  it('takes our additions affinity, priorityClassName and runtimeClassName from the class', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kvm', operator: 'In', values: ['yes'] }] }],
        },
      },
    };
    const p = pod({
      virtualTargetClass: qemuClass({
        scheduling: { affinity, priorityClassName: 'lab-high', runtimeClassName: 'kata' },
      }),
    });
    expect(p.spec.affinity).toEqual(affinity);
    expect(p.spec.priorityClassName).toBe('lab-high');
    expect(p.spec.runtimeClassName).toBe('kata');
  });

  it('writes no scheduling fields when the class has none', () => {
    const spec = pod().spec;
    for (const key of ['nodeSelector', 'tolerations', 'affinity', 'priorityClassName', 'runtimeClassName']) {
      expect(spec).not.toHaveProperty(key);
    }
  });

  it('shares no objects with the class, so mutating the Pod leaves the class intact', () => {
    const vtc = qemuClass({
      scheduling: { tolerations: [{ key: 'a', operator: 'Exists' }], resources: { limits: { cpu: '1' } } },
    });
    const p = pod({ virtualTargetClass: vtc });
    (p.spec.tolerations![0] as { key?: string }).key = 'changed';
    (container(p, 'target-runtime').resources!.limits as Record<string, string>).cpu = '9';
    expect(vtc.spec.scheduling!.tolerations![0].key).toBe('a');
    expect(vtc.spec.scheduling!.resources!.limits!.cpu).toBe('1');
  });
});

describe('QEMU pod › images', () => {
  const classImages = {
    exporter: { image: 'registry.lab/jumpstarter:v1', imagePullPolicy: 'Always' as const },
    runtime: { image: 'registry.lab/qemu-runtime:v1' },
  };

  it('uses the class images, with IfNotPresent when the class names no pull policy', () => {
    const p = pod({ virtualTargetClass: qemuClass({ images: classImages }) });
    expect(container(p, 'exporter')).toMatchObject({
      image: 'registry.lab/jumpstarter:v1',
      imagePullPolicy: 'Always',
    });
    expect(container(p, 'copy-jumpstarter-exec')).toMatchObject({
      image: 'registry.lab/jumpstarter:v1',
      imagePullPolicy: 'Always',
    });
    expect(container(p, 'target-runtime')).toMatchObject({
      image: 'registry.lab/qemu-runtime:v1',
      imagePullPolicy: 'IfNotPresent',
    });
  });

  it("replaces a class entry with the set's entry as a whole, keeping the other entry", () => {
    const p = pod({
      virtualTargetClass: qemuClass({ images: classImages }),
      exporterSet: qemuSet({ images: { exporter: { image: 'registry.lab/jumpstarter:canary' } } }),
    });
    // The set's exporter entry wins with its own (default) pull policy, not the class's Always.
    expect(container(p, 'exporter')).toMatchObject({
      image: 'registry.lab/jumpstarter:canary',
      imagePullPolicy: 'IfNotPresent',
    });
    expect(container(p, 'copy-jumpstarter-exec').image).toBe('registry.lab/jumpstarter:canary');
    expect(container(p, 'target-runtime').image).toBe('registry.lab/qemu-runtime:v1');
  });

  it('falls back to the default image when the winning entry only names a pull policy', () => {
    const p = pod({ exporterSet: qemuSet({ images: { runtime: { imagePullPolicy: 'Always' } } }) });
    expect(container(p, 'target-runtime')).toMatchObject({
      image: 'quay.io/jumpstarter-dev/virtual/qemu-runtime:latest',
      imagePullPolicy: 'Always',
    });
  });
});
