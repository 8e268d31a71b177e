/**
 * Tampered status fields (§3.19): what someone with access to the status subresource, or another
 * controller, might write into a set's status — ordinals out of range, counts far too large, times an
 * hour or a day ahead of true time. The CRD refuses some at admission (the operation then counts as
 * refused); the controller must recompute and report the rest.
 */
const HOUR = 3_600_000;

const stamp = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** The status merge patch `pick` (in [0, 1)) chooses, with times relative to true time `now`. */
export function tamperPatch(pick: number, now: number): Record<string, string | number> {
  const patches: ((now: number) => Record<string, string | number>)[] = [
    () => ({ nextOrdinal: 2 ** 53 - 1 }),
    () => ({ nextOrdinal: 1_000_000 }),
    () => ({ startupFailures: 1_000_000 }),
    (t) => ({ startupFailures: 5, lastStartupFailureTime: stamp(t + HOUR) }),
    (t) => ({ scaleDownWindowStart: stamp(t + 24 * HOUR), scaleDownTarget: 50 }),
    () => ({ templateRevision: 'x'.repeat(80) }),
  ];
  return patches[Math.min(patches.length - 1, Math.floor(pick * patches.length))](now);
}
