/**
 * The Kubernetes Pod Security Standards (https://kubernetes.io/docs/concepts/security/pod-security-standards/,
 * policy version v1.31) as code: the checks the Pod Security admission controller makes for the
 * "baseline" and "restricted" profiles, applied to a Pod's metadata and spec (or a Deployment's Pod
 * template). Each violation names the field and the rule, so a failing test says what to fix.
 *
 * Written from the published policy text, not from the admission plugin's code; only what a Pod the
 * installer or a provisioner renders could contain is modelled (Windows-only fields are checked for
 * HostProcess alone).
 */

export type Profile = 'baseline' | 'restricted';

/** The shape of the fields the policies read; any Pod or Pod template fits it. */
export interface PodLike {
  readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> };
  readonly spec: Record<string, any>;
}

/** Capabilities baseline lets a container add (the container runtime's defaults). */
export const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** Sysctls baseline allows (namespaced and isolated per Pod). */
export const SAFE_SYSCTLS: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];

/** SELinux types baseline allows. */
export const SELINUX_TYPES: readonly string[] = [
  'container_t',
  'container_init_t',
  'container_kvm_t',
  'container_engine_t',
];

/** The only volume types restricted allows (no hostPath, no network or cloud volumes mounted by the node). */
export const RESTRICTED_VOLUME_TYPES: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';

interface NamedContainer {
  readonly path: string;
  readonly container: Record<string, any>;
}

function containersOf(spec: Record<string, any>): NamedContainer[] {
  return (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap((field) =>
    ((spec[field] ?? []) as Record<string, any>[]).map((container) => ({
      path: `spec.${field}[${container.name}]`,
      container,
    })),
  );
}

/** The violations of the baseline profile: what stops a known privilege escalation. */
export function baselineViolations(pod: PodLike): string[] {
  const { spec } = pod;
  const out: string[] = [];
  const podContext = spec.securityContext ?? {};
  const containers = containersOf(spec);

  if (podContext.windowsOptions?.hostProcess === true)
    out.push('spec.securityContext.windowsOptions.hostProcess: must not be true');
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
    if (spec[field] === true) out.push(`spec.${field}: must not be true`);
  }
  for (const volume of (spec.volumes ?? []) as Record<string, unknown>[]) {
    if (volume.hostPath !== undefined) out.push(`spec.volumes[${String(volume.name)}].hostPath: not allowed`);
  }
  for (const [key, value] of Object.entries(pod.metadata?.annotations ?? {})) {
    if (
      key.startsWith(APPARMOR_ANNOTATION) &&
      value !== 'runtime/default' &&
      !value.startsWith('localhost/')
    ) {
      out.push(`metadata.annotations[${key}]: AppArmor profile ${value} is not allowed`);
    }
  }
  const contexts = [
    { path: 'spec.securityContext', context: podContext },
    ...containers.map(({ path, container }) => ({
      path: `${path}.securityContext`,
      context: container.securityContext ?? {},
    })),
  ];
  for (const { path, context } of contexts) {
    if (context.seccompProfile?.type === 'Unconfined')
      out.push(`${path}.seccompProfile.type: must not be Unconfined`);
    const appArmor = context.appArmorProfile?.type;
    if (appArmor !== undefined && appArmor !== 'RuntimeDefault' && appArmor !== 'Localhost') {
      out.push(`${path}.appArmorProfile.type: must be RuntimeDefault or Localhost`);
    }
    const selinux = context.seLinuxOptions;
    if (selinux?.type !== undefined && !SELINUX_TYPES.includes(selinux.type)) {
      out.push(`${path}.seLinuxOptions.type: ${selinux.type} is not allowed`);
    }
    if (selinux?.user !== undefined) out.push(`${path}.seLinuxOptions.user: must not be set`);
    if (selinux?.role !== undefined) out.push(`${path}.seLinuxOptions.role: must not be set`);
  }
  for (const sysctl of (podContext.sysctls ?? []) as { name: string }[]) {
    if (!SAFE_SYSCTLS.includes(sysctl.name))
      out.push(`spec.securityContext.sysctls[${sysctl.name}]: not a safe sysctl`);
  }
  for (const { path, container } of containers) {
    const context = container.securityContext ?? {};
    if (context.privileged === true) out.push(`${path}.securityContext.privileged: must not be true`);
    if (context.windowsOptions?.hostProcess === true)
      out.push(`${path}.securityContext.windowsOptions.hostProcess: must not be true`);
    for (const capability of (context.capabilities?.add ?? []) as string[]) {
      if (!BASELINE_CAPABILITIES.includes(capability))
        out.push(`${path}.securityContext.capabilities.add: ${capability} is not allowed`);
    }
    if (context.procMount !== undefined && context.procMount !== 'Default')
      out.push(`${path}.securityContext.procMount: must be Default`);
    for (const port of (container.ports ?? []) as { hostPort?: number }[]) {
      if (port.hostPort !== undefined && port.hostPort !== 0)
        out.push(`${path}.ports.hostPort: ${port.hostPort} is not allowed`);
    }
  }
  return out;
}

/** The violations of the restricted profile: baseline plus the Pod hardening best practices. */
export function restrictedViolations(pod: PodLike): string[] {
  const { spec } = pod;
  const out = baselineViolations(pod);
  const podContext = spec.securityContext ?? {};

  for (const volume of (spec.volumes ?? []) as Record<string, unknown>[]) {
    const type = Object.keys(volume).find((key) => key !== 'name');
    if (type === undefined || !RESTRICTED_VOLUME_TYPES.includes(type)) {
      out.push(`spec.volumes[${String(volume.name)}]: volume type ${String(type)} is not allowed`);
    }
  }
  if (podContext.runAsNonRoot === false) out.push('spec.securityContext.runAsNonRoot: must not be false');
  if (podContext.runAsUser === 0) out.push('spec.securityContext.runAsUser: must not be 0');
  const podSeccomp = podContext.seccompProfile?.type;
  if (podSeccomp !== undefined && podSeccomp !== 'RuntimeDefault' && podSeccomp !== 'Localhost') {
    out.push('spec.securityContext.seccompProfile.type: must be RuntimeDefault or Localhost');
  }

  for (const { path, container } of containersOf(spec)) {
    const context = container.securityContext ?? {};
    const at = `${path}.securityContext`;
    if (context.allowPrivilegeEscalation !== false) out.push(`${at}.allowPrivilegeEscalation: must be false`);
    const nonRoot = context.runAsNonRoot ?? podContext.runAsNonRoot;
    if (nonRoot !== true) out.push(`${at}.runAsNonRoot: must be true (here or on the Pod)`);
    if (context.runAsUser === 0) out.push(`${at}.runAsUser: must not be 0`);
    const seccomp = context.seccompProfile?.type ?? podSeccomp;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') {
      out.push(`${at}.seccompProfile.type: must be RuntimeDefault or Localhost (here or on the Pod)`);
    }
    const drop = (context.capabilities?.drop ?? []) as string[];
    if (!drop.includes('ALL')) out.push(`${at}.capabilities.drop: must include ALL`);
    for (const capability of (context.capabilities?.add ?? []) as string[]) {
      if (capability !== 'NET_BIND_SERVICE')
        out.push(`${at}.capabilities.add: only NET_BIND_SERVICE may be added, not ${capability}`);
    }
  }
  return out;
}

export function violations(profile: Profile, pod: PodLike): string[] {
  return profile === 'baseline' ? baselineViolations(pod) : restrictedViolations(pod);
}
