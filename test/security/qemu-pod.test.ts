/**
 * The QEMU instance Pod against the Pod Security Standards (issue 7, docs/security.md): the exporter
 * container, which holds the class credentials and talks to the network, runs non-root and meets
 * "restricted", as does the copy init container; the runtime sidecar runs QEMU as root for /dev/kvm,
 * so the Pod as a whole meets "baseline" and fails "restricted" on the runtime alone, for exactly
 * the reasons docs/security.md gives. What a set's template or a class may set does not loosen it.
 */
import { describe, expect, it } from '@jest/globals';
import { qemuProvisioner, type RenderedPod } from '../../lib/provisioners';
import { instance, qemuClass, qemuSet } from '../provisioners/fixtures';
import { baselineViolations, restrictedViolations, type PodLike } from './pod-security';

function render(overrides: Parameters<typeof instance>[0] = {}): RenderedPod {
  const objects = qemuProvisioner.render(instance(overrides)).objects;
  return objects.find((o) => o.kind === 'Pod') as unknown as RenderedPod;
}

/** The Pod with only one of its containers, to judge that container under the Pod's own context. */
function only(pod: RenderedPod, name: string): PodLike {
  const keep = (list: { name: string }[]) => list.filter((c) => c.name === name);
  return {
    metadata: pod.metadata,
    spec: {
      ...pod.spec,
      initContainers: keep(pod.spec.initContainers),
      containers: keep(pod.spec.containers),
    },
  };
}

const RUNTIME = 'spec.initContainers[target-runtime].securityContext';

describe('the QEMU instance Pod', () => {
  it('meets "baseline"', () => {
    expect(baselineViolations(render())).toEqual([]);
  });

  it('runs the exporter container non-root and "restricted"', () => {
    const pod = render();
    const exporter = pod.spec.containers.find((c) => c.name === 'exporter')!;
    expect(exporter.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    expect(restrictedViolations(only(pod, 'exporter'))).toEqual([]);
  });

  it('runs the copy init container "restricted"', () => {
    expect(restrictedViolations(only(render(), 'copy-jumpstarter-exec'))).toEqual([]);
  });

  it('misses "restricted" only on the runtime sidecar, which runs QEMU as root', () => {
    expect(restrictedViolations(render())).toEqual([
      `${RUNTIME}.allowPrivilegeEscalation: must be false`,
      `${RUNTIME}.runAsNonRoot: must be true (here or on the Pod)`,
      `${RUNTIME}.runAsUser: must not be 0`,
      `${RUNTIME}.capabilities.drop: must include ALL`,
    ]);
  });

  it('stays "baseline" whatever the template annotations ask for', () => {
    const set = qemuSet();
    const loosened = qemuSet({
      template: {
        ...set.spec.template,
        metadata: {
          labels: { board: 'rpi4' },
          annotations: {
            'container.apparmor.security.beta.kubernetes.io/target-runtime': 'unconfined',
            'container.apparmor.security.beta.kubernetes.io/exporter': 'unconfined',
            'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
          },
        },
      },
    });
    expect(baselineViolations(render({ exporterSet: loosened }))).toEqual([]);
  });

  it('stays "baseline" with KVM through a device plugin, other images and a runtime class', () => {
    const pod = render({
      virtualTargetClass: qemuClass({
        credentialsSecretRef: { name: 'lab-creds' },
        images: { runtime: { image: 'registry.lab/qemu-runtime:v2' } },
        scheduling: {
          resources: { limits: { 'devices.kubevirt.io/kvm': '1' } },
          runtimeClassName: 'kata',
          tolerations: [{ key: 'kvm', operator: 'Exists' }],
        },
      }),
      exporterSet: qemuSet({ images: { exporter: { image: 'registry.lab/jumpstarter:canary' } } }),
    });
    expect(baselineViolations(pod)).toEqual([]);
    expect(restrictedViolations(only(pod, 'exporter'))).toEqual([]);
  });

  it('gives the class credentials to the exporter container alone', () => {
    const pod = render({ virtualTargetClass: qemuClass({ credentialsSecretRef: { name: 'lab-creds' } }) });
    const holders = [...pod.spec.initContainers, ...pod.spec.containers].filter((c) => c.envFrom);
    expect(holders.map((c) => c.name)).toEqual(['exporter']);
  });
});
