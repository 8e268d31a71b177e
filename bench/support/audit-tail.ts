/**
 * The real API server's audit log (`KubeCluster.audit.file`: one JSON line per request at
 * ResponseComplete, level Metadata) read as it grows: each call reads only the bytes written since
 * the last one, so a benchmark can poll it every few milliseconds while the server answers hundreds of
 * thousands of requests. It stands in for the test cluster's request listener: who asked for what,
 * when the server received it, when it answered, and with which code.
 *
 * kube-apiserver rotates the file at 100 MB (lumberjack's default when `--audit-log-maxsize` is not
 * given): the file is renamed (`audit-<time>.log`) and a new one started. The tail notices the new
 * inode, reads the rest of the renamed file, then the new one from its start, so no line is lost.
 *
 * Times are on this process's timeline (`epochNow`): the server stamps them with the system clock in
 * microseconds (`requestReceivedTimestamp`, `stageTimestamp`), and `wallToTimeline` shifts them by the
 * measured difference between the two clocks of this process.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { epochNow } from './clock';

/** One audited request, on this process's timeline. */
export interface AuditRecord {
  /** The user name: the client certificate's CN for the bench's identities. */
  readonly user: string;
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  /** `''` when none. */
  readonly subresource: string;
  /** `''` for cluster-scoped requests and every-namespace lists. */
  readonly namespace: string;
  /** `''` for collections (and creates whose object had only a generateName). */
  readonly name: string;
  readonly code: number;
  /** When the server received the request (ms). */
  readonly receivedAt: number;
  /** When it had answered it (ms): after the write was committed. */
  readonly answeredAt: number;
}

/** Milliseconds since the epoch of an RFC 3339 time with up to nanoseconds (`…:05.123456Z`). */
export function parseMicroTime(text: string): number {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(text);
  if (!match) return Number.NaN;
  const whole = Date.parse(`${match[1]}${match[3]}`);
  return whole + (match[2] ? Number(`0${match[2]}`) * 1000 : 0);
}

/**
 * `epochNow() − system time` in this process (ms): `Date.now()` is whole milliseconds, so the smallest
 * difference over samples spread across a few milliseconds is the offset itself. Each sample is
 * bracketed by two `Date.now()` reads in the same millisecond: a sample the scheduler interrupted (a
 * loaded machine) reads across a tick and is dropped, where it would otherwise pull the minimum down by
 * the length of the interruption.
 */
export function measureClockDrift(spreadMs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  const until = Date.now() + spreadMs;
  for (
    let tries = 0;
    Date.now() <= until || (best === Number.POSITIVE_INFINITY && tries < 1_000_000);
    tries++
  ) {
    const before = Date.now();
    const epoch = epochNow();
    if (Date.now() === before) best = Math.min(best, epoch - before);
  }
  return best;
}

interface AuditLine {
  user?: { username?: string };
  verb?: string;
  objectRef?: {
    apiGroup?: string;
    resource?: string;
    subresource?: string;
    namespace?: string;
    name?: string;
  };
  responseStatus?: { code?: number };
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
}

export class AuditTail {
  private offset = 0;
  /** The inode of the file being read (undefined before the server wrote it). */
  private inode?: number;
  private partial = '';
  private readonly drift = measureClockDrift();
  /** Rotations followed so far. */
  rotations = 0;

  constructor(private readonly file: string) {}

  /** A system-clock time (ms since the epoch) on this process's timeline. */
  wallToTimeline(wallMs: number): number {
    return wallMs + this.drift;
  }

  /** Bytes of the open file `fd` from `offset` on. */
  private static rest(fd: number, offset: number): Buffer {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(1 << 20);
    for (let at = offset; ;) {
      const n = readSync(fd, buffer, 0, buffer.length, at);
      if (n === 0) break;
      at += n;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  }

  /** Bytes of `file` from `offset` on; empty when it cannot be opened. */
  private static restOf(file: string, offset: number): Buffer {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return Buffer.alloc(0);
    }
    try {
      return AuditTail.rest(fd, offset);
    } finally {
      closeSync(fd);
    }
  }

  /** The renamed file that has inode `inode`, in the log's folder. */
  private rotatedFile(inode: number): string | undefined {
    const dir = path.dirname(this.file);
    for (const name of readdirSync(dir)) {
      const candidate = path.join(dir, name);
      try {
        if (candidate !== this.file && statSync(candidate).ino === inode) return candidate;
      } catch {
        // gone meanwhile
      }
    }
    return undefined;
  }

  /** The requests audited since the last call, in the order the server wrote them. */
  read(): AuditRecord[] {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return []; // no request answered yet
    }
    const pieces: Buffer[] = [];
    try {
      const inode = fstatSync(fd).ino;
      if (this.inode !== undefined && inode !== this.inode) {
        // Rotated: finish the renamed file, then read the new one from its start.
        const rotated = this.rotatedFile(this.inode);
        if (rotated) pieces.push(AuditTail.restOf(rotated, this.offset));
        this.offset = 0;
        this.rotations += 1;
      }
      this.inode = inode;
      const rest = AuditTail.rest(fd, this.offset);
      this.offset += rest.length;
      pieces.push(rest);
    } finally {
      closeSync(fd);
    }
    if (pieces.every((piece) => piece.length === 0)) return [];
    const lines = (this.partial + Buffer.concat(pieces).toString('utf8')).split('\n');
    // The last piece is a line the server is still writing (or '' after a complete line).
    this.partial = lines.pop() ?? '';
    const out: AuditRecord[] = [];
    for (const line of lines) {
      if (!line) continue;
      let event: AuditLine;
      try {
        event = JSON.parse(line) as AuditLine;
      } catch {
        continue;
      }
      const ref = event.objectRef ?? {};
      const received = parseMicroTime(event.requestReceivedTimestamp ?? '');
      const answered = parseMicroTime(event.stageTimestamp ?? '');
      out.push({
        user: event.user?.username ?? '',
        verb: event.verb ?? '',
        group: ref.apiGroup ?? '',
        resource: ref.resource ?? '',
        subresource: ref.subresource ?? '',
        namespace: ref.namespace ?? '',
        name: ref.name ?? '',
        code: event.responseStatus?.code ?? 0,
        receivedAt: this.wallToTimeline(received),
        answeredAt: this.wallToTimeline(Number.isNaN(answered) ? received : answered),
      });
    }
    return out;
  }
}
