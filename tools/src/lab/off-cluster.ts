/**
 * The lab's off-cluster pools: sets of a `qemu-ssh.jumpstarter.dev` class (or its alias
 * `qemu-baremetal.jumpstarter.dev`) are served on OpenSSH servers the lab starts on loopback, one per
 * host the pools list (test cluster `ssh-hosts/`). The classes' (and sets') hosts are rewritten to
 * those servers, their keys pinned with `knownHosts`, and the class's credentials Secret holds a key
 * pair made for the run. The SSH transport, authentication, host-key checks, file transfer and the
 * commands the controller runs are real; `systemctl` and `podman` on the hosts are stand-ins (no
 * systemd or Podman runs here), and the test cluster's HostAgent plays each exporter unit's `jmp run`.
 *
 * Everything here but `startOffClusterHosts` and `prepareOffCluster` is pure.
 */
import { Kinds, ProvisionerNames } from 'virtual-exporters/internal';
import { SshdLab, sshdUnavailable, type KubeObject } from 'virtual-exporters-test-cluster';
import type { LabPool } from './manifests';

/** The provisioners whose instances live on SSH hosts. */
export const OFF_CLUSTER_PROVISIONERS: readonly string[] = [
  ProvisionerNames.qemuSsh,
  ProvisionerNames.qemuBaremetal,
];

export const isOffCluster = (provisioner: string): boolean => OFF_CLUSTER_PROVISIONERS.includes(provisioner);

/** Most hosts the lab starts: each is an sshd process. */
export const MAX_LAB_HOSTS = 8;

/** What became of the app's off-cluster pools. */
export type OffClusterReport =
  /** Served on these hosts, each an sshd on loopback. */
  | { readonly hosts: readonly LabHost[] }
  /** Not served, and why. */
  | { readonly unavailable: string };

/** A host the lab started, as the rewritten parameters name it. */
export interface LabHost {
  /** A loopback address, 127.0.0.<n>. */
  readonly name: string;
  readonly port: number;
  /** `[name]:port keytype base64`. */
  readonly knownHostsLine: string;
}

export interface OffClusterPlan {
  /** How many hosts to start: the longest `hosts` list of the pools' classes and sets. */
  readonly hostCount: number;
}

interface Parameters {
  hosts?: unknown;
  ssh?: unknown;
  knownHosts?: unknown;
  [key: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parametersOf(object: KubeObject): Parameters | undefined {
  const spec = object.spec as { parameters?: unknown } | undefined;
  return isObject(spec?.parameters) ? (spec.parameters as Parameters) : undefined;
}

/** The classes the off-cluster pools use, by `namespace/name`. */
function offClusterClassKeys(pools: readonly LabPool[]): Set<string> {
  return new Set(
    pools.filter((p) => isOffCluster(p.provisioner)).map((p) => `${p.namespace}/${p.className}`),
  );
}

const keyOf = (object: KubeObject, name: string | undefined): string =>
  `${object.metadata.namespace ?? 'default'}/${name ?? ''}`;

function isOffClusterClass(object: KubeObject, classes: Set<string>): boolean {
  return object.kind === Kinds.VirtualTargetClass && classes.has(keyOf(object, object.metadata.name));
}

function isOffClusterSet(object: KubeObject, classes: Set<string>): boolean {
  const className = (object.spec as { virtualTargetClassName?: string } | undefined)?.virtualTargetClassName;
  return object.kind === Kinds.ExporterSet && classes.has(keyOf(object, className));
}

/** How many hosts the off-cluster pools need; 0 when there are none. */
export function planOffCluster(objects: readonly KubeObject[], pools: readonly LabPool[]): OffClusterPlan {
  const classes = offClusterClassKeys(pools);
  if (classes.size === 0) return { hostCount: 0 };
  let longest = 1;
  for (const object of objects) {
    if (!isOffClusterClass(object, classes) && !isOffClusterSet(object, classes)) continue;
    const hosts = parametersOf(object)?.hosts;
    if (Array.isArray(hosts)) longest = Math.max(longest, hosts.length);
  }
  return { hostCount: Math.min(longest, MAX_LAB_HOSTS) };
}

/**
 * `parameters` with its hosts moved to the lab's: the i-th host becomes lab host i (its `slots` and
 * `arch` kept), every host is reached as `user`, and `knownHosts` pins the lab hosts' keys. Set-level
 * parameters are rewritten only where they name hosts, ssh settings or host keys.
 */
export function localiseParameters(
  parameters: Parameters | undefined,
  hosts: readonly LabHost[],
  user: string,
  level: 'class' | 'set',
): Parameters | undefined {
  const touchesHosts =
    parameters !== undefined && ('hosts' in parameters || 'ssh' in parameters || 'knownHosts' in parameters);
  if (level === 'set' && !touchesHosts) return parameters;
  const local: Parameters = {
    ...(parameters ?? {}),
    // Another user, port or host key here would point away from the lab's hosts.
    ssh: { user },
    knownHosts: hosts.map((h) => `${h.knownHostsLine}\n`).join(''),
  };
  if (level === 'class' || Array.isArray(parameters?.hosts)) {
    const listed = Array.isArray(parameters?.hosts) ? (parameters.hosts as unknown[]) : [{}];
    local.hosts = listed.slice(0, hosts.length).map((entry, i) => {
      const original = isObject(entry) ? entry : {};
      return {
        name: hosts[i].name,
        port: hosts[i].port,
        user,
        ...(typeof original.slots === 'number' ? { slots: original.slots } : {}),
        ...(original.arch !== undefined ? { arch: original.arch } : {}),
      };
    });
  }
  return local;
}

/** The credentials Secret a class names, or the name the lab gives it when it names none. */
export function credentialsSecretNameOf(cls: KubeObject): string {
  const ref = (cls.spec as { credentialsSecretRef?: { name?: unknown } } | undefined)?.credentialsSecretRef;
  const named = ref?.name;
  return typeof named === 'string' && named !== '' ? named : `${cls.metadata.name ?? 'class'}-lab-ssh`;
}

export interface LocalisedObjects {
  /** The app's objects with the off-cluster classes and sets pointed at the lab hosts. */
  readonly objects: readonly KubeObject[];
  /** The credentials Secrets those classes read (`ssh-privatekey`), created before the classes. */
  readonly secrets: readonly KubeObject[];
}

/** Points the off-cluster classes and sets of `objects` at the lab's hosts (see the module doc). */
export function localiseOffCluster(
  objects: readonly KubeObject[],
  pools: readonly LabPool[],
  hosts: readonly LabHost[],
  user: string,
  privateKey: string,
): LocalisedObjects {
  const classes = offClusterClassKeys(pools);
  const secrets = new Map<string, KubeObject>();
  const localised = objects.map((object) => {
    const isClass = isOffClusterClass(object, classes);
    if (!isClass && !isOffClusterSet(object, classes)) return object;
    const parameters = localiseParameters(parametersOf(object), hosts, user, isClass ? 'class' : 'set');
    const spec: Record<string, unknown> = {
      ...(object.spec as Record<string, unknown>),
      ...(parameters ? { parameters } : {}),
    };
    if (isClass) {
      const secretName = credentialsSecretNameOf(object);
      spec.credentialsSecretRef = { name: secretName };
      const namespace = object.metadata.namespace ?? 'default';
      secrets.set(`${namespace}/${secretName}`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secretName, namespace },
        type: 'kubernetes.io/ssh-auth',
        data: { 'ssh-privatekey': Buffer.from(privateKey).toString('base64') },
      });
    }
    return { ...object, spec };
  });
  return { objects: localised, secrets: [...secrets.values()] };
}

/**
 * Starts `count` sshd hosts on loopback, or says why it cannot: sshd or ssh-keygen missing, or an
 * sshd that would not start (its error).
 */
export async function startOffClusterHosts(
  count: number,
): Promise<{ readonly lab: SshdLab } | { readonly unavailable: string }> {
  const missing = sshdUnavailable();
  if (missing !== undefined) return { unavailable: missing };
  try {
    return { lab: await SshdLab.start(count) };
  } catch (error) {
    return { unavailable: `sshd did not start: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The lab hosts as the parameters name them. */
export function labHostsOf(lab: SshdLab): LabHost[] {
  return lab.hosts.map((h) => ({ name: h.name, port: h.port, knownHostsLine: h.knownHostsLine() }));
}

export interface OffClusterSetup {
  /** The app's objects, pointed at the hosts (with the credentials Secrets first) when they started. */
  readonly objects: readonly KubeObject[];
  /** Set when the app has off-cluster pools. */
  readonly report?: OffClusterReport;
  /** The hosts, when they started: the caller closes them. */
  readonly sshd?: SshdLab;
}

/**
 * Starts the hosts the off-cluster pools need and points the app's objects at them; or says why they
 * are not served (`enabled` false: the lab was told not to start them).
 */
export async function prepareOffCluster(
  objects: readonly KubeObject[],
  pools: readonly LabPool[],
  enabled: boolean,
): Promise<OffClusterSetup> {
  if (pools.length === 0) return { objects };
  if (!enabled) return { objects, report: { unavailable: 'the lab was told not to start sshd hosts' } };
  const started = await startOffClusterHosts(planOffCluster(objects, pools).hostCount);
  if ('unavailable' in started) return { objects, report: started };
  const sshd = started.lab;
  const hosts = labHostsOf(sshd);
  const localised = localiseOffCluster(objects, pools, hosts, sshd.hosts[0].user, sshd.clientKey.privateKey);
  return { objects: [...localised.secrets, ...localised.objects], report: { hosts }, sshd };
}
