/**
 * Objects as they travel on the wire. The custom-object client and every watch event hand out plain
 * JSON (timestamps are RFC 3339 strings), but client-node's typed core clients turn timestamps into
 * `Date`s. The informer caches hold one shape only — wire JSON — so a Pod read from a list and the
 * same Pod from a watch event compare and serialize alike.
 */
import type { V1Pod, V1Secret } from '@kubernetes/client-node';

/** `T` with every `Date` as the string the API server sent. */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

export type PodObject = Wire<V1Pod>;
export type SecretObject = Wire<V1Secret>;

/**
 * The wire form of an object from a typed client. A JSON round trip is exact for the core kinds we
 * cache (Pods and Secrets have no renamed fields), and turns `Date`s into ISO strings.
 */
export function toWire<T>(object: T): Wire<T> {
  return JSON.parse(JSON.stringify(object)) as Wire<T>;
}
