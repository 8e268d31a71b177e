/**
 * The lifecycle of `qemu-ssh.jumpstarter.dev` instances (InstanceLifecycle) over SSH:
 *
 * - realise: the instance's files already on a host (a realise whose placement was never recorded) are
 *   rewritten there; otherwise a host is chosen (host-choice.ts) and tried in order, a host that cannot be
 *   reached or logged into being backed off and the next one tried. On the host: the folders, the files
 *   over SFTP, `systemctl daemon-reload`, `systemctl start` of the runtime and exporter units. Returns
 *   the placement `{qemu-ssh.jumpstarter.dev/host: <host>}`.
 * - observe: `systemctl show` of both units → running / exited (the exporter ended, code 0) / failed
 *   (a unit failed) / absent (no units); an unreachable host is `unknown` (HostUnreachable) naming it.
 * - teardown: stop and disable both units, remove the files, reload systemd, remove the volume; on the
 *   recorded host, or with no placement on every reachable host. Idempotent.
 * - realisedNames: our files on every reachable host, for the namespace asked about.
 *
 * One connection per host per call, always closed before the call returns. The key comes from the
 * class's credentials (`ssh-privatekey`) and appears in no message. Host keys are checked against
 * `knownHosts` and the instance's trust store (host-keys.ts) before a connection is used.
 */
import { ValidationError } from '../../core/issue';
import type {
  InstanceLifecycle,
  LifecycleInstance,
  LifecycleNotice,
  ObservedInstance,
  Placement,
  ProvisionerCredentials,
  TrustStore,
} from '../provisioner';
import { isPlainObject } from '../../core/plain-object';
import { HOST_ANNOTATION, SSH_PRIVATE_KEY } from './constants';
import { HostBackoff } from './host-backoff';
import { chooseHosts } from './host-choice';
import { checkHostKey } from './host-keys';
import { MemoryTrustStore } from './memory-trust-store';
import { DEFAULT_SSH_PORT, DEFAULT_SSH_USER, resolveHosts, type ResolvedHost } from './parameters';
import { REMOTE_DIR_MODES, renderRemoteFiles } from './remote-files';
import {
  REMOTE_CONFIG_DIR,
  REMOTE_UNIT_DIR,
  instanceOfRemoteFile,
  remoteFilePaths,
  remoteLayout,
  type RemoteLayout,
} from './remote-layout';
import { SshConnectError, SshConnection, shellQuote } from './ssh-client';

export interface QemuSshLifecycleOptions {
  /** Receives notices (a host key trusted on first use), e.g. to record an event. */
  readonly onNotice?: (notice: LifecycleNotice) => void;
  /**
   * The folder each host's remote paths are placed under (tests point it at a temporary folder of each
   * test "host").
   * @default the host's root
   */
  readonly hostRoot?: (host: ResolvedHost) => string;
  /** @default 10 s */
  readonly connectTimeoutMs?: number;
  readonly backoff?: HostBackoff;
  /** The clock for backoff, in ms. @default Date.now */
  readonly now?: () => number;
  /**
   * Where host keys trusted on first use are kept for an instance that brings no trust store of its own
   * (`LifecycleInstance.trust`). @default a MemoryTrustStore of this lifecycle
   */
  readonly trust?: TrustStore;
}

/** What opening a connection to a host takes: the login key, the pins, the trust store, the notices. */
interface HostAccess {
  readonly privateKey: string;
  readonly knownHosts: string | undefined;
  readonly trust: TrustStore;
  readonly notify?: ((notice: LifecycleNotice) => void) | undefined;
}

/** What `systemctl show` says of one unit. */
export interface UnitState {
  readonly loadState: string;
  readonly activeState: string;
  readonly result: string;
  readonly execMainStatus: number;
}

/** Parses `systemctl show -p LoadState,ActiveState,Result,ExecMainStatus a b` (blocks in unit order). */
export function parseUnitStates(output: string): UnitState[] {
  return output
    .split(/\n\s*\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) fields.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
      }
      return {
        loadState: fields.get('LoadState') ?? 'not-found',
        activeState: fields.get('ActiveState') ?? 'inactive',
        result: fields.get('Result') ?? '',
        execMainStatus: Number(fields.get('ExecMainStatus') ?? '0') || 0,
      };
    });
}

/** The instance's state from its runtime and exporter units. */
export function instanceStateOf(
  layout: RemoteLayout,
  runtime: UnitState,
  exporter: UnitState,
): ObservedInstance {
  const loaded = (u: UnitState) => u.loadState !== 'not-found';
  if (!loaded(runtime) && !loaded(exporter)) return { state: 'absent' };
  if (!loaded(exporter) || !loaded(runtime)) {
    const missing = loaded(exporter) ? layout.runtimeService : layout.exporterService;
    return { state: 'failed', reason: 'UnitMissing', message: `${missing} is not loaded on the host` };
  }
  if (runtime.activeState === 'failed') {
    return {
      state: 'failed',
      reason: 'UnitFailed',
      message: `${layout.runtimeService} failed (${runtime.result}, exit code ${runtime.execMainStatus})`,
    };
  }
  if (exporter.activeState === 'failed') {
    return {
      state: 'failed',
      reason: 'UnitFailed',
      message: `${layout.exporterService} failed (${exporter.result}, exit code ${exporter.execMainStatus})`,
    };
  }
  if (exporter.activeState === 'inactive') {
    return {
      state: 'exited',
      reason: 'UnitExited',
      message: `${layout.exporterService} exited with code ${exporter.execMainStatus}`,
    };
  }
  return { state: 'running' };
}

export class QemuSshLifecycle implements InstanceLifecycle {
  readonly backoff: HostBackoff;
  /** The trust store of instances that bring none. */
  readonly trust: TrustStore;
  /** Also receives every notice (the instance's `notify` gets it as well); settable after construction. */
  onNotice: ((notice: LifecycleNotice) => void) | undefined;
  private readonly now: () => number;
  /** Notices not yet reported to any instance's set, by host. */
  private readonly pending = new Map<string, LifecycleNotice[]>();

  constructor(private readonly options: QemuSshLifecycleOptions = {}) {
    this.onNotice = options.onNotice;
    this.backoff = options.backoff ?? new HostBackoff();
    this.now = options.now ?? Date.now;
    this.trust = options.trust ?? new MemoryTrustStore();
  }

  async realise(instance: LifecycleInstance, placements: readonly Placement[]): Promise<Placement> {
    const rendered = renderRemoteFiles(instance);
    const access = this.accessOf(instance);
    const hosts = resolveHosts(instance.parameters);

    // A realise whose placement was never recorded left the files on some host: finish it there.
    const existing = await this.findInstance(hosts, access, rendered.layout);
    if (existing !== undefined) {
      await this.withHost(existing, access, (c) => this.install(c, rendered.files, rendered.layout));
      return { [HOST_ANNOTATION]: existing.name };
    }

    const choice = chooseHosts(hosts, placements, this.backoff, this.now());
    if (!choice.ok) throw new Error(`cannot place ${subjectOf(instance)}: ${choice.message}`);
    const failures: string[] = [];
    for (const { host } of choice.candidates) {
      try {
        await this.withHost(host, access, (c) => this.install(c, rendered.files, rendered.layout));
        return { [HOST_ANNOTATION]: host.name };
      } catch (error) {
        if (!(error instanceof SshConnectError)) throw error;
        failures.push(error.message);
      }
    }
    throw new Error(`cannot place ${subjectOf(instance)}: ${failures.join('; ')}`);
  }

  async observe(instance: LifecycleInstance, placement: Placement): Promise<ObservedInstance> {
    const layout = layoutOf(instance);
    const host = this.hostOf(instance.parameters, placement[HOST_ANNOTATION]);
    if (host === undefined) return { state: 'absent' };
    const backedOff = this.backoff.backedOff(host.name, this.now());
    if (backedOff !== undefined) {
      return {
        state: 'unknown',
        reason: 'HostUnreachable',
        message: `host ${host.name}: ${backedOff.error}`,
      };
    }
    try {
      return await this.withHost(host, this.accessOf(instance), async (c) => {
        const out = await c.run(
          `systemctl show -p LoadState,ActiveState,Result,ExecMainStatus ${shellQuote(layout.runtimeService)} ${shellQuote(layout.exporterService)}`,
          'systemctl show',
        );
        const [runtime, exporter] = parseUnitStates(out);
        if (runtime === undefined || exporter === undefined) {
          return {
            state: 'unknown',
            reason: 'ObserveFailed',
            message: `host ${host.name}: systemctl show answered ${JSON.stringify(out.slice(0, 200))}`,
          };
        }
        return instanceStateOf(layout, runtime, exporter);
      });
    } catch (error) {
      if (error instanceof SshConnectError) {
        return { state: 'unknown', reason: 'HostUnreachable', message: error.message };
      }
      throw error;
    }
  }

  async teardown(instance: LifecycleInstance, placement: Placement): Promise<void> {
    const layout = layoutOf(instance);
    const access = this.accessOf(instance);
    const recorded = placement[HOST_ANNOTATION];
    if (recorded !== undefined) {
      const host = this.hostOf(instance.parameters, recorded)!;
      await this.withHost(host, access, (c) => this.remove(c, layout));
      return;
    }
    // No placement (never realised, or a leftover): wherever it may be. A host that cannot be reached is
    // skipped; if the instance is there, the leftover sweep removes it once the host is back.
    await Promise.all(
      resolveHosts(instance.parameters).map(async (host) => {
        try {
          await this.withHost(host, access, (c) => this.remove(c, layout));
        } catch (error) {
          if (!(error instanceof SshConnectError)) throw error;
        }
      }),
    );
  }

  async realisedNames(
    parameters: Readonly<Record<string, unknown>>,
    credentials: ProvisionerCredentials,
    namespace: string,
    trust?: TrustStore,
  ): Promise<readonly string[]> {
    const access: HostAccess = {
      privateKey: privateKeyOf(credentials),
      knownHosts: knownHostsOf(parameters),
      trust: trust ?? this.trust,
    };
    const found = new Set<string>();
    await Promise.all(
      resolveHosts(parameters).map(async (host) => {
        if (this.backoff.backedOff(host.name, this.now()) !== undefined) return;
        try {
          const out = await this.withHost(host, access, (c) =>
            c.run(
              [REMOTE_UNIT_DIR, REMOTE_CONFIG_DIR]
                .map(
                  (d) =>
                    `if [ -d ${shellQuote(this.path(host, d))} ]; then ls -1A ${shellQuote(this.path(host, d))}; fi`,
                )
                .join('; '),
              'listing the instances',
            ),
          );
          for (const file of out.split('\n')) {
            const owner = instanceOfRemoteFile(file.trim());
            if (owner !== undefined && owner.namespace === namespace) found.add(owner.name);
          }
        } catch (error) {
          if (!(error instanceof SshConnectError)) throw error;
        }
      }),
    );
    return [...found].sort();
  }

  /** The host named `name` in the parameters; one no longer listed is still reached with the defaults. */
  private hostOf(parameters: unknown, name: string | undefined): ResolvedHost | undefined {
    if (name === undefined) return undefined;
    const listed = resolveHosts(parameters).find((h) => h.name === name);
    if (listed !== undefined) return listed;
    const p = isPlainObject(parameters) ? parameters : {};
    const ssh = isPlainObject(p.ssh) ? p.ssh : {};
    return {
      name,
      slots: 1,
      user: typeof ssh.user === 'string' ? ssh.user : DEFAULT_SSH_USER,
      port: typeof ssh.port === 'number' ? ssh.port : DEFAULT_SSH_PORT,
    };
  }

  /** The host (reachable, in the listed order) that already has the instance's exporter unit. */
  private async findInstance(
    hosts: readonly ResolvedHost[],
    access: HostAccess,
    layout: RemoteLayout,
  ): Promise<ResolvedHost | undefined> {
    const found = await Promise.all(
      hosts.map(async (host) => {
        if (this.backoff.backedOff(host.name, this.now()) !== undefined) return false;
        try {
          return await this.withHost(
            host,
            access,
            async (c) =>
              (await c.exec(`test -e ${shellQuote(this.path(host, layout.exporterUnitPath))}`)).code === 0,
          );
        } catch (error) {
          if (!(error instanceof SshConnectError)) throw error;
          return false;
        }
      }),
    );
    return hosts.find((_, i) => found[i]);
  }

  private async install(
    c: SshConnection,
    files: readonly { path: string; content: string; mode: number }[],
    layout: RemoteLayout,
  ): Promise<void> {
    const dirs = REMOTE_DIR_MODES.map(
      (d) => `mkdir -p -m ${d.mode.toString(8)} ${shellQuote(this.path(c.host, d.path))}`,
    ).join(' && ');
    await c.run(dirs, 'creating the folders');
    await c.writeFiles(files.map((f) => ({ ...f, path: this.path(c.host, f.path) })));
    await c.run('systemctl daemon-reload', 'systemctl daemon-reload');
    await c.run(
      `systemctl start ${shellQuote(layout.runtimeService)} ${shellQuote(layout.exporterService)}`,
      'systemctl start',
    );
  }

  private async remove(c: SshConnection, layout: RemoteLayout): Promise<void> {
    const units = `${shellQuote(layout.exporterService)} ${shellQuote(layout.runtimeService)}`;
    const files = remoteFilePaths(layout)
      .map((p) => shellQuote(this.path(c.host, p)))
      .join(' ');
    const volume = shellQuote(layout.base);
    await c.run(
      [
        // Units that are not loaded (already gone) make stop and disable complain: that is success here.
        `systemctl stop ${units} 2>/dev/null || true`,
        `systemctl disable ${units} 2>/dev/null || true`,
        `rm -f ${files}`,
        'systemctl daemon-reload',
        `if podman volume exists ${volume}; then podman volume rm --force ${volume}; fi`,
      ].join(' && '),
      'removing the instance',
    );
  }

  /** What connecting for `instance` takes. */
  private accessOf(instance: LifecycleInstance): HostAccess {
    return {
      privateKey: privateKeyOf(instance.credentials),
      knownHosts: knownHostsOf(instance.parameters),
      trust: instance.trust ?? this.trust,
      notify: instance.notify,
    };
  }

  /** Opens a connection to `host`, runs `work`, always closes; connect failures back the host off. */
  private async withHost<T>(
    host: ResolvedHost,
    access: HostAccess,
    work: (c: SshConnection) => Promise<T>,
  ): Promise<T> {
    const { privateKey, knownHosts, trust, notify: notice } = access;
    let connection: SshConnection;
    const notices: LifecycleNotice[] = [];
    try {
      connection = await SshConnection.open({
        host,
        privateKey,
        ...(this.options.connectTimeoutMs !== undefined
          ? { connectTimeoutMs: this.options.connectTimeoutMs }
          : {}),
        verifyHostKey: async (key) => {
          const verdict = await checkHostKey(host.name, host.port, key, knownHosts, trust);
          if (!verdict.ok) return verdict.message;
          if (verdict.notice) notices.push(verdict.notice);
          return undefined;
        },
      });
    } catch (error) {
      if (error instanceof SshConnectError) this.backoff.fail(host.name, error.detail, this.now());
      throw error;
    } finally {
      for (const n of notices) {
        this.onNotice?.(n);
        // Found with no instance to report through (the leftover sweep): kept for the next operation
        // on this host that has one.
        if (notice === undefined) this.pending.set(host.name, [...(this.pending.get(host.name) ?? []), n]);
      }
      if (notice !== undefined) {
        const earlier = this.pending.get(host.name) ?? [];
        this.pending.delete(host.name);
        for (const n of [...earlier, ...notices]) notice(n);
      }
    }
    this.backoff.succeed(host.name);
    try {
      return await work(connection);
    } finally {
      connection.close();
    }
  }

  private path(host: ResolvedHost, remotePath: string): string {
    const root = this.options.hostRoot?.(host) ?? '';
    return `${root.replace(/\/+$/, '')}${remotePath}`;
  }
}

function subjectOf(instance: LifecycleInstance): string {
  const m = instance.exporter.metadata;
  return `instance ${m?.namespace ?? ''}/${m?.name ?? ''}`;
}

function layoutOf(instance: LifecycleInstance): RemoteLayout {
  const m = instance.exporter.metadata;
  const namespace = m?.namespace ?? instance.exporterSet.metadata?.namespace ?? '';
  return remoteLayout(namespace, m?.name ?? '');
}

function privateKeyOf(credentials: ProvisionerCredentials): string {
  const key = credentials[SSH_PRIVATE_KEY];
  if (typeof key !== 'string' || key.trim() === '') {
    throw new ValidationError("the class's credentials Secret", [
      {
        path: SSH_PRIVATE_KEY,
        message:
          "is required: the SSH private key the controller logs into the hosts with (a kubernetes.io/ssh-auth Secret named by the class's credentialsSecretRef)",
      },
    ]);
  }
  return key;
}

function knownHostsOf(parameters: unknown): string | undefined {
  return isPlainObject(parameters) && typeof parameters.knownHosts === 'string'
    ? parameters.knownHosts
    : undefined;
}
