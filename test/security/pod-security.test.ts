/**
 * The Pod Security checks (pod-security.ts) find what they are meant to find: a hardened Pod passes
 * both profiles, and each weakening is reported, by the profile that forbids it and with its field.
 * Without this the installer and provisioner checks could pass on a checker that never fails.
 */
import { describe, expect, it } from '@jest/globals';
import { baselineViolations, restrictedViolations, type PodLike } from './pod-security';

/** A Pod that meets "restricted": non-root, no escalation, no capabilities, RuntimeDefault seccomp. */
function hardened(): PodLike & {
  spec: Record<string, any>;
  metadata: { annotations: Record<string, string> };
} {
  return {
    metadata: { annotations: {} },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'app',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          ports: [{ containerPort: 8080 }],
        },
      ],
      volumes: [
        { name: 'scratch', emptyDir: {} },
        { name: 'config', secret: { secretName: 'c' } },
      ],
    },
  };
}

type Change = (pod: ReturnType<typeof hardened>) => void;
const app = (pod: ReturnType<typeof hardened>) => pod.spec.containers[0].securityContext;

describe('Pod Security checks', () => {
  it('pass a hardened Pod in both profiles', () => {
    expect(baselineViolations(hardened())).toEqual([]);
    expect(restrictedViolations(hardened())).toEqual([]);
  });

  it('let restricted add NET_BIND_SERVICE and pin seccomp per container', () => {
    const pod = hardened();
    delete pod.spec.securityContext.seccompProfile;
    app(pod).seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' };
    app(pod).capabilities.add = ['NET_BIND_SERVICE'];
    expect(restrictedViolations(pod)).toEqual([]);
  });

  it.each<[string, Change, string]>([
    [
      'a privileged container',
      (p) => (app(p).privileged = true),
      'spec.containers[app].securityContext.privileged: must not be true',
    ],
    ['the host network', (p) => (p.spec.hostNetwork = true), 'spec.hostNetwork: must not be true'],
    ['the host PID namespace', (p) => (p.spec.hostPID = true), 'spec.hostPID: must not be true'],
    ['the host IPC namespace', (p) => (p.spec.hostIPC = true), 'spec.hostIPC: must not be true'],
    [
      'a hostPath volume',
      (p) => p.spec.volumes.push({ name: 'kvm', hostPath: { path: '/dev/kvm' } }),
      'spec.volumes[kvm].hostPath: not allowed',
    ],
    [
      'a host port',
      (p) => (p.spec.containers[0].ports[0].hostPort = 80),
      'spec.containers[app].ports.hostPort: 80 is not allowed',
    ],
    [
      'SYS_ADMIN',
      (p) => (app(p).capabilities.add = ['SYS_ADMIN']),
      'spec.containers[app].securityContext.capabilities.add: SYS_ADMIN is not allowed',
    ],
    [
      'an unconfined seccomp profile',
      (p) => (p.spec.securityContext.seccompProfile = { type: 'Unconfined' }),
      'spec.securityContext.seccompProfile.type: must not be Unconfined',
    ],
    [
      'an unconfined AppArmor annotation',
      (p) => (p.metadata.annotations['container.apparmor.security.beta.kubernetes.io/app'] = 'unconfined'),
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: AppArmor profile unconfined is not allowed',
    ],
    [
      'an unconfined AppArmor profile',
      (p) => (app(p).appArmorProfile = { type: 'Unconfined' }),
      'spec.containers[app].securityContext.appArmorProfile.type: must be RuntimeDefault or Localhost',
    ],
    [
      'a custom SELinux type',
      (p) => (app(p).seLinuxOptions = { type: 'spc_t' }),
      'spec.containers[app].securityContext.seLinuxOptions.type: spc_t is not allowed',
    ],
    [
      'an unmasked /proc',
      (p) => (app(p).procMount = 'Unmasked'),
      'spec.containers[app].securityContext.procMount: must be Default',
    ],
    [
      'an unsafe sysctl',
      (p) => (p.spec.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '1' }]),
      'spec.securityContext.sysctls[kernel.msgmax]: not a safe sysctl',
    ],
    [
      'a HostProcess container',
      (p) => (app(p).windowsOptions = { hostProcess: true }),
      'spec.containers[app].securityContext.windowsOptions.hostProcess: must not be true',
    ],
  ])('baseline (and so restricted) rejects %s', (_what, change, violation) => {
    const pod = hardened();
    change(pod);
    expect(baselineViolations(pod)).toEqual([violation]);
    expect(restrictedViolations(pod)).toContain(violation);
  });

  it.each<[string, Change, string]>([
    [
      'privilege escalation',
      (p) => delete app(p).allowPrivilegeEscalation,
      'spec.containers[app].securityContext.allowPrivilegeEscalation: must be false',
    ],
    [
      'root by omission',
      (p) => delete p.spec.securityContext.runAsNonRoot,
      'spec.containers[app].securityContext.runAsNonRoot: must be true (here or on the Pod)',
    ],
    ['uid 0', (p) => (app(p).runAsUser = 0), 'spec.containers[app].securityContext.runAsUser: must not be 0'],
    [
      'no seccomp profile',
      (p) => delete p.spec.securityContext.seccompProfile,
      'spec.containers[app].securityContext.seccompProfile.type: must be RuntimeDefault or Localhost (here or on the Pod)',
    ],
    [
      'kept capabilities',
      (p) => (app(p).capabilities = {}),
      'spec.containers[app].securityContext.capabilities.drop: must include ALL',
    ],
    [
      'an added default capability',
      (p) => (app(p).capabilities.add = ['CHOWN']),
      'spec.containers[app].securityContext.capabilities.add: only NET_BIND_SERVICE may be added, not CHOWN',
    ],
    [
      'a volume type outside the list',
      (p) => p.spec.volumes.push({ name: 'nfs', nfs: { server: 'x', path: '/' } }),
      'spec.volumes[nfs]: volume type nfs is not allowed',
    ],
  ])('restricted alone rejects %s', (_what, change, violation) => {
    const pod = hardened();
    change(pod);
    expect(baselineViolations(pod)).toEqual([]);
    expect(restrictedViolations(pod)).toEqual([violation]);
  });

  it('checks init and ephemeral containers too', () => {
    const pod = hardened();
    pod.spec.initContainers = [{ name: 'init', securityContext: { privileged: true } }];
    pod.spec.ephemeralContainers = [
      { name: 'debug', securityContext: { capabilities: { add: ['NET_RAW'] } } },
    ];
    expect(baselineViolations(pod)).toEqual([
      'spec.initContainers[init].securityContext.privileged: must not be true',
      'spec.ephemeralContainers[debug].securityContext.capabilities.add: NET_RAW is not allowed',
    ]);
  });
});
