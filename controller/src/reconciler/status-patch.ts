import { isPlainObject } from 'virtual-exporters/internal';

/**
 * The merge patch (RFC 7386) that turns one status into another: the desired status, with `null` for
 * every key the current one has and the desired one lacks (a merge patch keeps what it does not
 * mention, so a closed scale-down window would otherwise stay in status for ever). Arrays are
 * replaced whole, as merge patches do, which is right for `conditions`.
 */
export function statusMergePatch(current: unknown, desired: unknown): unknown {
  if (!isPlainObject(desired)) return desired;
  const patch: Record<string, unknown> = {};
  const old = isPlainObject(current) ? current : {};
  for (const [key, value] of Object.entries(desired)) patch[key] = statusMergePatch(old[key], value);
  for (const key of Object.keys(old)) if (!(key in desired)) patch[key] = null;
  return patch;
}
