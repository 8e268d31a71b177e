import type { Duration, Size } from 'cdk8s';
import { formatDuration } from '../core/duration';

/**
 * A cdk8s Duration as the Go duration text the CRD stores, without Go's trailing zero units
 * (`5m`, not `5m0s`) so manifests read like the ones people write by hand.
 */
export function toGoDuration(duration: Duration): string {
  return formatDuration(duration.toMilliseconds())
    .replace(/([hm])0s$/, '$1')
    .replace(/h0m$/, 'h');
}

/** A cdk8s Size as a Kubernetes quantity (`Size.gibibytes(8)` → `8Gi`). */
export function toQuantity(size: Size | string): string {
  return typeof size === 'string' ? size : size.asString();
}

/**
 * A framework-neutral input's fields, with the ones named in `Units` retyped to cdk8s value types
 * (`Duration`, `Size`); the rest, their docs and their optionality carry over unchanged.
 */
export type WithUnits<
  T,
  Units extends { readonly [K in keyof Units]: K extends keyof T ? unknown : never },
> = {
  readonly [K in keyof T]: K extends keyof Units ? Units[K] : T[K];
};
