/**
 * True for `{...}` objects, what JSON and YAML objects parse to: prototype `null` or an
 * `Object.prototype`, including another realm's (objects from `structuredClone`, `vm` contexts or
 * jest's module sandbox). False for lists (of any realm), `null` and class instances (`Date`, `Map`):
 * code that walks, merges or patches JSON-like data leaves those whole.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.prototype.toString.call(value) !== '[object Object]') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
