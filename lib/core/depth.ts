/**
 * Bounds on nesting. A Kubernetes API server admits JSON nested up to 10,000 levels inside a
 * schemaless field (`spec.parameters`, a driver's `config`), but everything that walks such data —
 * the deep merge, canonical JSON and the revision hash, the `yaml` renderer of the exporter config,
 * JSON.stringify, and the exporter's own YAML loader — recurses, and would overflow its stack long
 * before that. So user data has one stated limit, checked here without recursion, at synth time and
 * in the controller; the recursive walkers check their whole input against a looser cap first, so data
 * that skipped validation fails with a clear error instead of a stack overflow.
 */
import type { ValidationIssue } from './issue';

/**
 * Levels of objects and lists allowed below a schemaless field: `{a: {b: 1}}` is 2. Real parameters
 * and driver configs are a handful of levels deep. The exporter reads its config with PyYAML, whose
 * composer recurses (two Python frames per level against Python's default limit of 1,000 frames: a
 * config of 400 levels loads, one of 500 does not), so 128 keeps well clear of that and of every
 * JavaScript stack.
 */
export const MAX_USER_DATA_DEPTH = 128;

/**
 * The cap the recursive walkers check their whole input against: user data sits a few levels inside
 * what they walk (an exporter config entry's `config` is 3 levels down, a revision's driver configs
 * 5), so twice the user-data limit admits everything validation admits and is still shallow for
 * any stack.
 */
export const MAX_WALK_DEPTH = 2 * MAX_USER_DATA_DEPTH;

/**
 * The nesting depth of JSON-like data, counted up to `limit + 1` and no further: scalars are 0, `{}`
 * and `[]` are 1, `{a: []}` is 2. Iterative, and each object is revisited only when reached deeper than
 * before, so its cost is bounded for any input, including shared or cyclic references (a cycle counts
 * as deeper than any limit).
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const seenAt = new Map<object, number>();
  const stack: Array<readonly [unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    const level = depth + 1;
    if (level > limit) return limit + 1;
    if ((seenAt.get(item) ?? 0) >= level) continue;
    seenAt.set(item, level);
    if (level > deepest) deepest = level;
    const members: unknown[] = Array.isArray(item) ? item : Object.values(item);
    for (const member of members) {
      if (typeof member === 'object' && member !== null) stack.push([member, level]);
    }
  }
  return deepest;
}

/** The message of a field nested past `limit`, shared by validation issues and walker errors. */
export function nestingMessage(limit: number): string {
  return `is nested more than ${limit} levels deep (objects and lists within each other); at most ${limit} levels are supported, so flatten it`;
}

/** An issue at `path` when `value` is nested deeper than `limit`; the value is left out (it may be huge). */
export function nestingIssue(
  path: string,
  value: unknown,
  limit: number = MAX_USER_DATA_DEPTH,
): ValidationIssue | undefined {
  return nestingDepth(value, limit) > limit ? { path, message: nestingMessage(limit) } : undefined;
}

/** Thrown by a walker given data deeper than it can walk safely. */
export class NestingTooDeepError extends Error {
  constructor(
    readonly subject: string,
    readonly limit: number,
  ) {
    super(`${subject} ${nestingMessage(limit)}`);
    this.name = 'NestingTooDeepError';
  }
}

/** Throws {@link NestingTooDeepError} naming `subject` when `value` is nested deeper than `limit`. */
export function assertNestingWithin(value: unknown, subject: string, limit: number = MAX_WALK_DEPTH): void {
  if (nestingDepth(value, limit) > limit) throw new NestingTooDeepError(subject, limit);
}
