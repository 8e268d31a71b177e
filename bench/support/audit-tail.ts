/**
 * The real API server's audit log (`KubeCluster.audit.file`: one JSON line per request at
 * ResponseComplete, level Metadata) read as it grows: each call reads only the bytes written since
 * the last one, so a benchmark can poll it every few milliseconds while the server answers hundreds of
 * thousands of requests. It stands in for the test cluster's request listener: who asked for what,
 * when the server received it, when it answered, and with which code.
 *
 * Times are on this process's timeline (`epochNow`): the server stamps them with the system clock in
 * microseconds (`requestReceivedTimestamp`, `stageTimestamp`), and `wallToTimeline` shifts them by the
 * measured difference between the two clocks of this process.
 */
import { closeSync, openSync, readSync } from 'node:fs';
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
 * difference over samples spread across a few milliseconds is the offset itself.
 */
export function measureClockDrift(spreadMs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  const until = Date.now() + spreadMs;
  while (Date.now() <= until) best = Math.min(best, epochNow() - Date.now());
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
  private partial = '';
  private readonly drift = measureClockDrift();

  constructor(private readonly file: string) {}

  /** A system-clock time (ms since the epoch) on this process's timeline. */
  wallToTimeline(wallMs: number): number {
    return wallMs + this.drift;
  }

  /** The requests audited since the last call, in the order the server wrote them. */
  read(): AuditRecord[] {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return []; // no request answered yet
    }
    const chunks: Buffer[] = [];
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (n === 0) break;
        this.offset += n;
        chunks.push(Buffer.from(buffer.subarray(0, n)));
      }
    } finally {
      closeSync(fd);
    }
    if (chunks.length === 0) return [];
    const lines = (this.partial + Buffer.concat(chunks).toString('utf8')).split('\n');
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
