/**
 * One SSH connection to a host, over the `ssh2` library (loaded lazily, so synth never needs it): public
 * key authentication, a host key check, commands with their exit code and output, and files written over
 * SFTP. Connecting is bounded by a timeout and every command by another; `close` always ends the socket.
 * Errors name the host and the SSH error, never the key.
 */
import type { ResolvedHost } from './parameters';

/** Time to open the TCP connection and finish the SSH handshake and authentication. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Time one remote command may take (systemctl start pulls nothing: the units pull at most once). */
export const COMMAND_TIMEOUT_MS = 120_000;

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The failure to reach or log into a host (the cause of a backoff), as opposed to a command failing. */
export class SshConnectError extends Error {
  constructor(
    readonly host: string,
    readonly detail: string,
  ) {
    super(`SSH to ${host} failed: ${detail}`);
    this.name = 'SshConnectError';
  }
}

export interface SshConnectOptions {
  readonly host: ResolvedHost;
  readonly privateKey: string;
  /**
   * Resolves undefined to accept the key, or the reason to refuse it; the session waits for it (within
   * the connect timeout), so the key can be recorded before the connection is used.
   */
  readonly verifyHostKey: (key: Buffer) => Promise<string | undefined>;
  readonly connectTimeoutMs?: number;
  readonly commandTimeoutMs?: number;
}

/* Just the parts of ssh2's API used here (its own typings are not a dependency). */
interface Ssh2Stream {
  on(event: 'close', listener: (code: number | null, signal?: string) => void): this;
  on(event: 'data', listener: (data: Buffer) => void): this;
  stderr: { on(event: 'data', listener: (data: Buffer) => void): unknown };
  end(data?: string): void;
}
interface Ssh2Sftp {
  writeFile(path: string, data: string, options: { mode: number }, cb: (err?: Error | null) => void): void;
  chmod(path: string, mode: number, cb: (err?: Error | null) => void): void;
  end(): void;
}
interface Ssh2Client {
  on(event: 'ready', listener: () => void): this;
  on(event: 'error', listener: (err: Error & { level?: string }) => void): this;
  on(event: 'close', listener: () => void): this;
  connect(config: Record<string, unknown>): void;
  exec(command: string, cb: (err: Error | undefined, stream: Ssh2Stream) => void): void;
  sftp(cb: (err: Error | undefined, sftp: Ssh2Sftp) => void): void;
  end(): void;
  destroy?(): void;
}
type Ssh2ClientConstructor = new () => Ssh2Client;

let clientConstructor: Promise<Ssh2ClientConstructor> | undefined;

/** ssh2's Client, imported on first use. */
async function loadClient(): Promise<Ssh2ClientConstructor> {
  const name = 'ssh2';
  clientConstructor ??= import(name).then((mod: { default?: { Client?: unknown }; Client?: unknown }) => {
    const Client = mod.Client ?? mod.default?.Client;
    if (typeof Client !== 'function') throw new Error('the ssh2 package has no Client');
    return Client as Ssh2ClientConstructor;
  });
  return clientConstructor;
}

/** `'…'` shell quoting for POSIX sh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export class SshConnection {
  private closed = false;

  private constructor(
    readonly host: ResolvedHost,
    private readonly client: Ssh2Client,
    private readonly commandTimeoutMs: number,
  ) {
    client.on('close', () => {
      this.closed = true;
    });
  }

  /** Opens an authenticated connection, or rejects with an SshConnectError. */
  static async open(options: SshConnectOptions): Promise<SshConnection> {
    const { host } = options;
    const where = host.port === 22 ? host.name : `${host.name}:${host.port}`;
    const Client = await loadClient();
    const client = new Client();
    let refusal: string | undefined;
    return new Promise<SshConnection>((resolve, reject) => {
      let settled = false;
      const fail = (detail: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        end(client);
        reject(new SshConnectError(where, detail));
      };
      const timeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
      const timer = setTimeout(() => fail(`no SSH session within ${timeoutMs / 1000} s`), timeoutMs);
      client.on('ready', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(new SshConnection(host, client, options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS));
      });
      client.on('error', (err) => {
        if (refusal !== undefined) return fail(refusal);
        if (err.level === 'client-authentication') {
          return fail(
            `the host refused the key in the class's credentials (ssh-privatekey) for user ${host.user}: ${err.message}`,
          );
        }
        fail(err.message);
      });
      client.on('close', () => fail('the connection closed before the SSH session was ready'));
      try {
        client.connect({
          host: host.name,
          port: host.port,
          username: host.user,
          privateKey: options.privateKey,
          readyTimeout: timeoutMs,
          tryKeyboard: false,
          // Two parameters: ssh2 waits for `verify` (returning undefined leaves the answer to it).
          hostVerifier: (key: Buffer, verify: (ok: boolean) => void): undefined => {
            options.verifyHostKey(key).then(
              (reason) => {
                refusal = reason;
                if (!settled) verify(reason === undefined);
              },
              (error: unknown) => {
                refusal = `the host key could not be checked: ${(error as Error).message}`;
                if (!settled) verify(false);
              },
            );
            return undefined;
          },
        });
      } catch (error) {
        // ssh2 throws synchronously for a key it cannot parse; its message never holds the key.
        fail(
          `the key in the class's credentials (ssh-privatekey) cannot be used: ${(error as Error).message}`,
        );
      }
    });
  }

  /** Runs a command through the login shell; resolves with its exit code and output. */
  exec(command: string): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`the connection to ${this.host.name} is closed`));
      const timer = setTimeout(() => {
        end(this.client);
        reject(
          new Error(`${this.host.name}: a command did not finish within ${this.commandTimeoutMs / 1000} s`),
        );
      }, this.commandTimeoutMs);
      this.client.exec(command, (err, stream) => {
        if (err) {
          clearTimeout(timer);
          return reject(new Error(`${this.host.name}: could not run a command: ${err.message}`));
        }
        const out: Buffer[] = [];
        const errOut: Buffer[] = [];
        stream.on('data', (d) => out.push(d));
        stream.stderr.on('data', (d) => errOut.push(d));
        stream.on('close', (code) => {
          clearTimeout(timer);
          resolve({
            code: code ?? -1,
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(errOut).toString('utf8'),
          });
        });
      });
    });
  }

  /** Like exec, but a non-zero exit rejects with the host, what was being done and stderr. */
  async run(command: string, what: string): Promise<string> {
    const result = await this.exec(command);
    if (result.code !== 0) {
      const detail = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ');
      throw new Error(
        `${this.host.name}: ${what} failed (exit ${result.code})${detail ? `: ${detail}` : ''}`,
      );
    }
    return result.stdout;
  }

  /** Writes files over one SFTP session, each with its mode (set again when the file already existed). */
  async writeFiles(files: readonly { path: string; content: string; mode: number }[]): Promise<void> {
    const sftp = await new Promise<Ssh2Sftp>((resolve, reject) =>
      this.client.sftp((err, s) =>
        err ? reject(new Error(`${this.host.name}: SFTP is not available: ${err.message}`)) : resolve(s),
      ),
    );
    try {
      for (const file of files) {
        await new Promise<void>((resolve, reject) =>
          sftp.writeFile(file.path, file.content, { mode: file.mode }, (err) =>
            err
              ? reject(new Error(`${this.host.name}: could not write ${file.path}: ${err.message}`))
              : resolve(),
          ),
        );
        await new Promise<void>((resolve, reject) =>
          sftp.chmod(file.path, file.mode, (err) =>
            err
              ? reject(new Error(`${this.host.name}: could not chmod ${file.path}: ${err.message}`))
              : resolve(),
          ),
        );
      }
    } finally {
      sftp.end();
    }
  }

  close(): void {
    end(this.client);
  }
}

function end(client: Ssh2Client): void {
  try {
    client.end();
  } catch {
    // already ended
  }
  try {
    client.destroy?.();
  } catch {
    // already destroyed
  }
}
