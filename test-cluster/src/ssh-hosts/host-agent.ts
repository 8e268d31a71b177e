/**
 * The exporter processes of off-cluster instances on sshd test hosts (sshd-host.ts): what `jmp run`
 * under systemd would do there. For each instance whose exporter unit the stand-in systemctl reports
 * active, the agent reads the exporter config the controller wrote on the host (endpoint, token,
 * exitOnLeaseEnd) and, after the boot delay, registers with the Jumpstarter simulator. When its lease
 * ends and the config says to exit, the process exits and its unit is marked exited (code 0), as
 * systemd would record it; a unit torn down (its config removed) takes its process with it.
 *
 * A host that is down (its sshd stopped) takes its exporter processes with it: they are lost, as a
 * powered-off machine's are, and Jumpstarter stops seeing them; when the host is back, its active
 * units start their exporters again, as enabled units do after a reboot.
 *
 * It polls the hosts' folders on the real clock: the files are written by SSH, outside any clock a
 * test controls.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { instanceOfRemoteFile, remoteLayout, REMOTE_CONFIG_DIR } from 'virtual-exporters/internal';
import type { ExporterProcesses } from '../jumpstarter/exporter-processes';
import type { SshdHost } from './sshd-host';

export interface HostAgentOptions {
  /** Wall ms from a unit becoming active to its exporter registering (QEMU boot). @default 0 */
  readonly bootDelayMs?: number;
  /** Wall ms between scans of the hosts. @default 50 */
  readonly pollMs?: number;
  /** Exporter configs that do not parse, as sentences (once per instance). */
  readonly onError?: (message: string) => void;
}

interface Running {
  readonly host: SshdHost;
  readonly namespace: string;
  readonly name: string;
}

export class HostAgent {
  /** Registered processes, by `namespace/name`. */
  private readonly running = new Map<string, Running>();
  /** Instances booting (unit active, not registered yet): when they register. */
  private readonly booting = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly reported = new Set<string>();

  constructor(
    private readonly hosts: readonly SshdHost[],
    private readonly processes: ExporterProcesses,
    private readonly options: HostAgentOptions = {},
  ) {
    this.unsubscribe = processes.subscribe({
      leaseEnded: (namespace, exporter, _lease, exiting) => {
        const key = `${namespace}/${exporter}`;
        const running = this.running.get(key);
        if (!exiting || running === undefined) return;
        setImmediate(() => {
          this.running.delete(key);
          processes.exit(namespace, exporter, 'graceful');
          running.host.markExited(remoteLayout(namespace, exporter).exporterService, 0);
        });
      },
    });
    this.timer = setInterval(() => this.scan(), options.pollMs ?? 50);
  }

  /** `namespace/name` of the instances whose exporter runs now. */
  runningInstances(): string[] {
    return [...this.running.keys()].sort();
  }

  private scan(): void {
    const now = Date.now();
    const present = new Set<string>();
    for (const host of this.hosts) {
      if (!host.isUp()) continue; // nothing of it is present: its processes are lost below
      const dir = join(host.root, REMOTE_CONFIG_DIR);
      for (const file of existsSync(dir) ? readdirSync(dir) : []) {
        const instance = instanceOfRemoteFile(file);
        if (instance === undefined) continue;
        const key = `${instance.namespace}/${instance.name}`;
        present.add(key);
        if (this.running.has(key)) continue;
        const layout = remoteLayout(instance.namespace, instance.name);
        if (host.unitState(layout.exporterService) !== 'active') {
          this.booting.delete(key);
          continue;
        }
        const due = this.booting.get(key) ?? now + (this.options.bootDelayMs ?? 0);
        this.booting.set(key, due);
        if (now >= due) this.register(host, instance.namespace, instance.name, join(dir, file), key);
      }
    }
    // A unit torn down (its config removed), or its host gone down, takes its process with it.
    for (const [key, running] of this.running) {
      if (present.has(key)) continue;
      this.running.delete(key);
      this.processes.exit(running.namespace, running.name, 'lost');
    }
    for (const key of this.booting.keys()) if (!present.has(key)) this.booting.delete(key);
  }

  private register(host: SshdHost, namespace: string, name: string, path: string, key: string): void {
    let config: { token?: unknown; endpoint?: unknown; exitOnLeaseEnd?: unknown };
    try {
      config = (parse(readFileSync(path, 'utf8')) ?? {}) as typeof config;
    } catch (error) {
      this.report(key, `${host.name}: the exporter config of ${key} does not parse: ${String(error)}`);
      return;
    }
    const result = this.processes.register({
      namespace,
      exporter: name,
      ...(typeof config.token === 'string' ? { token: config.token } : {}),
      ...(typeof config.endpoint === 'string' ? { endpoint: config.endpoint } : {}),
      exitOnLeaseEnd: config.exitOnLeaseEnd === true,
    });
    // A refused registration is retried every scan, as `jmp run` retries (the Exporter may be new).
    if (result.accepted) {
      this.booting.delete(key);
      this.running.set(key, { host, namespace, name });
    }
  }

  private report(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.options.onError?.(message);
  }

  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe();
  }
}
