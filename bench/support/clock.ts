/**
 * One timeline for the benchmark's processes: milliseconds since the epoch with sub-millisecond
 * resolution (`performance.timeOrigin + performance.now()`), so the cluster child's request
 * timestamps and the bench process's watch timestamps can be subtracted. The two origins come from
 * the system clock at each process's start and may differ slightly; `estimateOffset` measures that
 * difference over IPC and the bench converts the child's times with it.
 */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** One round trip of a clock probe: when it was sent and answered here, and the remote time it read. */
export interface ClockSample {
  readonly sent: number;
  readonly received: number;
  readonly remote: number;
}

/**
 * The remote clock minus ours, from the sample with the shortest round trip (NTP's rule: the
 * midpoint of the quickest exchange has the smallest error, at most half its round trip).
 */
export function offsetFromSamples(samples: readonly ClockSample[]): { offsetMs: number; errorMs: number } {
  if (samples.length === 0) throw new Error('estimating a clock offset needs at least one sample');
  const best = samples.reduce((a, b) => (b.received - b.sent < a.received - a.sent ? b : a));
  const roundTrip = best.received - best.sent;
  return { offsetMs: best.remote - (best.sent + roundTrip / 2), errorMs: roundTrip / 2 };
}

/** Measures the offset of a remote clock read by `remoteNow` (e.g. an IPC call). */
export async function estimateOffset(
  remoteNow: () => Promise<number>,
  samples = 20,
): Promise<{ offsetMs: number; errorMs: number }> {
  const taken: ClockSample[] = [];
  for (let i = 0; i < samples; i++) {
    const sent = epochNow();
    const remote = await remoteNow();
    taken.push({ sent, remote, received: epochNow() });
  }
  return offsetFromSamples(taken);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it returns something other than undefined/false; rejects after `timeoutMs`
 * with `what` in the message.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${options.timeoutMs ?? 60_000} ms waiting for ${what}`);
    await sleep(options.intervalMs ?? 20);
  }
}
