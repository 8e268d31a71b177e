/**
 * A process's resident memory as the kernel counts it, read from outside the process
 * (`/proc/<pid>/status`, Linux): `VmRSS` now and `VmHWM`, the most it was ever resident — the peak
 * nothing in the process has to catch by sampling. Plus a sampler that reads `VmRSS` on a timer, so a
 * peak can be told to the phase it happened in (listing, first passes).
 */
import { readFileSync } from 'node:fs';

export interface ResidentMemory {
  /** Bytes resident now. */
  readonly rss: number;
  /** Bytes resident at most, since the process started. */
  readonly peak: number;
}

/** `VmRSS` and `VmHWM` of a `/proc/<pid>/status` text, in bytes; undefined when either is missing. */
export function parseProcStatus(text: string): ResidentMemory | undefined {
  const kB = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const rss = kB('VmRSS');
  const peak = kB('VmHWM');
  return rss === undefined || peak === undefined ? undefined : { rss, peak };
}

/** The resident memory of `pid`; undefined when it cannot be read (not Linux, process gone). */
export function residentMemory(pid: number): ResidentMemory | undefined {
  try {
    return parseProcStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface RssSample {
  /** `epochNow()` of the bench process. */
  readonly at: number;
  readonly rss: number;
}

/** The largest sample taken in [from, to) — undefined when none was. */
export function peakBetween(samples: readonly RssSample[], from: number, to: number): number | undefined {
  let peak: number | undefined;
  for (const s of samples)
    if (s.at >= from && s.at < to && (peak === undefined || s.rss > peak)) peak = s.rss;
  return peak;
}

/** Reads `VmRSS` of `pid` every `intervalMs` until stopped. */
export function sampleRss(
  pid: number,
  intervalMs: number,
  now: () => number,
): { readonly samples: readonly RssSample[]; stop(): void } {
  const samples: RssSample[] = [];
  const take = () => {
    const memory = residentMemory(pid);
    if (memory) samples.push({ at: now(), rss: memory.rss });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    samples,
    stop: () => clearInterval(timer),
  };
}
