/**
 * Real OpenSSH servers on loopback standing in for the hosts of `qemu-ssh.jumpstarter.dev`: one `sshd`
 * per "host", each on a free port with its own host key, its own folder (the lifecycle's remote root for
 * that host) and a per-run client key pair made with ssh-keygen. The transport, authentication, host key
 * checks and SFTP are real. These machines have no systemd or working Podman, so `systemctl` and
 * `podman` on the session's PATH (sshd `SetEnv`) are stand-in scripts that append each call to
 * `calls.log` and emulate unit state: `daemon-reload` loads the quadlet units present, `start` makes a
 * loaded unit active (and its volume exist), `stop` inactive, `show` reports it; a test marks the
 * exporter unit exited with a code (markExited).
 *
 * Used by the tests (through test/support/sshd-host.ts) and by the lab, which serves an off-cluster pool on them.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../ports';

export const SSHD = '/usr/sbin/sshd';

/**
 * Why sshd test hosts cannot be started here, or undefined when they can: the OpenSSH server and
 * ssh-keygen must be installed (Debian: openssh-server, openssh-client).
 */
export function sshdUnavailable(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is missing (apt-get install -y openssh-server)`;
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return 'ssh-keygen is missing (apt-get install -y openssh-client)';
    }
  }
  return undefined;
}

const SYSTEMCTL = `#!/bin/bash
# Stand-in for systemctl on a test host: records the call, emulates unit state (see sshd-host.ts).
set -u
dir="$VE_HOST_DIR"
echo "systemctl $*" >> "$dir/calls.log"
units="$dir/root/etc/containers/systemd"
mkdir -p "$dir/state" "$dir/loaded" "$dir/volumes"
loaded() { [ -e "$dir/loaded/$1" ]; }
cmd="$1"; shift
case "$cmd" in
  daemon-reload)
    rm -f "$dir"/loaded/*
    for f in "$units"/*.container; do
      [ -e "$f" ] || continue
      touch "$dir/loaded/$(basename "$f" .container).service"
    done
    ;;
  start)
    for u in "$@"; do loaded "$u" || { echo "Failed to start $u: Unit $u not found." >&2; exit 5; }; done
    for u in "$@"; do
      echo "active 0" > "$dir/state/$u"
      case "$u" in *-runtime.service) touch "$dir/volumes/\${u%-runtime.service}";; esac
    done
    ;;
  stop)
    rc=0
    for u in "$@"; do
      if loaded "$u"; then echo "inactive 0" > "$dir/state/$u"; else echo "Failed to stop $u: Unit $u not loaded." >&2; rc=5; fi
    done
    exit $rc
    ;;
  disable)
    for u in "$@"; do echo "Failed to disable unit: Unit $u is transient or generated." >&2; done
    exit 1
    ;;
  show)
    first=1
    skip=0
    for a in "$@"; do
      if [ "$skip" = 1 ]; then skip=0; continue; fi
      case "$a" in -p) skip=1; continue;; -*) continue;; esac
      [ "$first" = 1 ] || echo
      first=0
      if loaded "$a"; then
        read -r active code < "$dir/state/$a" 2>/dev/null || { active=inactive; code=0; }
        result=success; [ "$code" = 0 ] || result=exit-code
        printf 'LoadState=loaded\\nActiveState=%s\\nResult=%s\\nExecMainStatus=%s\\n' "$active" "$result" "$code"
      else
        printf 'LoadState=not-found\\nActiveState=inactive\\nResult=success\\nExecMainStatus=0\\n'
      fi
    done
    ;;
  *) echo "stand-in systemctl: $cmd is not emulated" >&2; exit 2;;
esac
`;

const PODMAN = `#!/bin/bash
# Stand-in for podman on a test host: records the call, emulates volumes (see sshd-host.ts).
set -u
dir="$VE_HOST_DIR"
echo "podman $*" >> "$dir/calls.log"
mkdir -p "$dir/volumes"
if [ "$1 $2" = "volume exists" ]; then [ -e "$dir/volumes/$3" ]; exit $?; fi
if [ "$1 $2" = "volume rm" ]; then
  for v in "\${@:3}"; do case "$v" in -*) ;; *) rm -f "$dir/volumes/$v";; esac; done
  exit 0
fi
echo "stand-in podman: $* is not emulated" >&2; exit 2
`;

async function waitForPort(address: string, port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, address);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`sshd did not listen on ${address}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A key pair made with ssh-keygen in `dir`. */
export function makeKeyPair(
  dir: string,
  name: string,
): { privateKey: string; publicKey: string; path: string } {
  const path = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', path]);
  return { privateKey: readFileSync(path, 'utf8'), publicKey: readFileSync(`${path}.pub`, 'utf8'), path };
}

export class SshdHost {
  private process: ChildProcess | undefined;

  private constructor(
    /** The host's loopback address (127.0.0.<n>): hosts differ by name, as real hosts do. */
    readonly name: string,
    /** The host's folder: its root (the lifecycle's remote root), state, calls.log. */
    readonly dir: string,
    readonly port: number,
    readonly user: string,
  ) {}

  /** Starts sshd accepting `authorizedKey`, with a new host key. */
  static async start(parent: string, index: number, authorizedKey: string): Promise<SshdHost> {
    const dir = join(parent, `host-${index}`);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    mkdirSync(join(dir, 'root'), { recursive: true });
    writeFileSync(join(dir, 'bin', 'systemctl'), SYSTEMCTL);
    writeFileSync(join(dir, 'bin', 'podman'), PODMAN);
    chmodSync(join(dir, 'bin', 'systemctl'), 0o755);
    chmodSync(join(dir, 'bin', 'podman'), 0o755);
    writeFileSync(join(dir, 'calls.log'), '');
    writeFileSync(join(dir, 'authorized_keys'), authorizedKey);
    const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
    const host = new SshdHost(`127.0.0.${index + 1}`, dir, await freePort(), user);
    host.newHostKey();
    await host.resume();
    return host;
  }

  /** Replaces the host key (takes effect at the next resume). */
  newHostKey(): void {
    rmSync(join(this.dir, 'host_key'), { force: true });
    rmSync(join(this.dir, 'host_key.pub'), { force: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(this.dir, 'host_key')]);
  }

  /** The host's public key as a known_hosts line (`[127.0.0.1]:port type base64`). */
  knownHostsLine(): string {
    const [type, key] = readFileSync(join(this.dir, 'host_key.pub'), 'utf8').split(' ');
    return `[${this.name}]:${this.port} ${type} ${key}`;
  }

  /** (Re)starts sshd on the same port. */
  async resume(): Promise<void> {
    if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const config = join(this.dir, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${this.port}`,
        `ListenAddress ${this.name}`,
        `HostKey ${join(this.dir, 'host_key')}`,
        `AuthorizedKeysFile ${join(this.dir, 'authorized_keys')}`,
        `PidFile ${join(this.dir, 'sshd.pid')}`,
        'PermitRootLogin prohibit-password',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        'Subsystem sftp internal-sftp',
        `SetEnv PATH=${join(this.dir, 'bin')}:/usr/local/bin:/usr/bin:/bin VE_HOST_DIR=${this.dir}`,
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    this.process = child;
    try {
      await waitForPort(this.name, this.port);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}: ${stderr}`);
    }
  }

  /** Whether the host is up: its sshd runs (`stop` takes the host down, `resume` brings it back). */
  isUp(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Stops sshd (the host "goes down"); resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** The remote root the lifecycle places this host's files under. */
  get root(): string {
    return join(this.dir, 'root');
  }

  /** Every call of the stand-ins so far, one line each. */
  calls(): string[] {
    return readFileSync(join(this.dir, 'calls.log'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
  }

  clearCalls(): void {
    writeFileSync(join(this.dir, 'calls.log'), '');
  }

  /** Files under the host's root, relative paths, sorted. */
  files(): string[] {
    const out = execFileSync('find', ['.', '-type', 'f'], { cwd: this.root, encoding: 'utf8' });
    return out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.slice(1))
      .sort();
  }

  volumes(): string[] {
    const dir = join(this.dir, 'volumes');
    if (!existsSync(dir)) return [];
    return execFileSync('ls', ['-1A', dir], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '')
      .sort();
  }

  /** Empties the host: its files, unit states, volumes and call log (between tests). */
  reset(): void {
    for (const sub of ['root', 'state', 'loaded', 'volumes']) {
      rmSync(join(this.dir, sub), { recursive: true, force: true });
    }
    mkdirSync(join(this.dir, 'root'), { recursive: true });
    this.clearCalls();
  }

  /** What the stand-in systemctl says of a unit: undefined when it was never started. */
  unitState(service: string): 'active' | 'inactive' | 'failed' | undefined {
    const path = join(this.dir, 'state', service);
    if (!existsSync(path)) return undefined;
    const state = readFileSync(path, 'utf8').split(' ')[0];
    return state === 'active' || state === 'inactive' || state === 'failed' ? state : undefined;
  }

  /** Marks a unit as ended: exit code 0 → inactive, anything else → failed. */
  markExited(service: string, code: number): void {
    mkdirSync(join(this.dir, 'state'), { recursive: true });
    writeFileSync(join(this.dir, 'state', service), `${code === 0 ? 'inactive' : 'failed'} ${code}\n`);
  }
}

/** A run's hosts and client key, in one temporary folder removed by `close`. */
export class SshdLab {
  readonly hosts: SshdHost[] = [];
  private constructor(
    readonly dir: string,
    readonly clientKey: { privateKey: string; publicKey: string },
  ) {}

  static async start(count: number): Promise<SshdLab> {
    const dir = mkdtempSync(join(tmpdir(), 've-sshd-'));
    const lab = new SshdLab(dir, makeKeyPair(dir, 'client'));
    try {
      for (let i = 0; i < count; i += 1) {
        lab.hosts.push(await SshdHost.start(dir, i, lab.clientKey.publicKey));
      }
    } catch (error) {
      await lab.close();
      throw error;
    }
    return lab;
  }

  host(name: string): SshdHost {
    const host = this.hosts.find((h) => h.name === name);
    if (!host) throw new Error(`no test host ${name}`);
    return host;
  }

  async close(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
