/**
 * The controller's last warnings of a seed, as a log destination: a seed that does not converge
 * appends what the controller last complained of (a write refused on every pass, an informer that
 * keeps failing) to its violation, so a failure of a 2000-seed run can be read without replaying it.
 */
import type { Clock } from 'virtual-exporters-test-cluster';

/** Warnings kept: enough to see a repeating one and what came before it. */
const KEPT = 6;
/** The controller logs levels by label (pino's numbers, 40 and up, from other loggers). */
const isWarning = (level: unknown): boolean =>
  level === undefined ||
  (typeof level === 'number' ? level >= 40 : ['warn', 'error', 'fatal'].includes(String(level)));

/** Characters of one warning in a violation message. */
const SHOWN = 300;

interface Warning {
  readonly at: number;
  readonly text: string;
}

/** What a log line says, in one line: the set, the message and the error's message. */
function summary(line: string): string | undefined {
  try {
    const entry = JSON.parse(line) as {
      level?: number | string;
      msg?: string;
      exporterset?: string;
      namespace?: string;
      resource?: string;
      err?: { message?: string };
      failure?: { reason?: string; message?: string };
    };
    // Lines below warn (when the log also feeds a failure trace) are not warnings.
    if (!isWarning(entry.level)) return undefined;
    const about = entry.exporterset ?? entry.resource;
    const detail =
      entry.err?.message ?? (entry.failure ? `${entry.failure.reason}: ${entry.failure.message}` : '');
    const text = `${about ? `${about}: ` : ''}${entry.msg ?? ''}${detail ? ` (${detail.replace(/\s+/g, ' ')})` : ''}`;
    return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text;
  } catch {
    return undefined;
  }
}

export class RecentWarnings {
  private readonly kept: Warning[] = [];
  private total = 0;

  constructor(private readonly clock: Clock) {}

  /** The log destination's write: one JSON line per call. */
  write(line: string): void {
    const text = summary(line);
    if (text === undefined) return;
    this.total += 1;
    this.kept.push({ at: this.clock.now(), text });
    if (this.kept.length > KEPT) this.kept.shift();
  }

  /** The kept warnings logged at or after `from` (cluster time), as a sentence to append; '' if none. */
  since(from: number): string {
    const recent = this.kept.filter((w) => w.at >= from);
    if (recent.length === 0) return '';
    const texts = recent.map((w) => `[+${((w.at - from) / 1000).toFixed(1)} s] ${w.text}`);
    return `. The controller's last warnings after the faults stopped: ${texts.join('; ')}`;
  }

  /** How many warnings the controller logged in the seed. */
  count(): number {
    return this.total;
  }
}
