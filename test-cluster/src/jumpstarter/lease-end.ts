/**
 * When a lease ends (INTEROP §2 "Ends"), as a pure function: `spec.release` ends it as `Released`;
 * expiry — `spec.endTime`, else the actual begin plus `spec.duration` — ends it as `Expired`. A lease
 * with neither an end time nor a duration runs until released.
 *
 * Where INTEROP is silent: release also ends a lease that was never assigned (a client giving up
 * while pending), and an unassigned lease whose requested `endTime` has passed ends as `Expired`
 * rather than being assigned after its end.
 */
import { tryParseDuration, type Lease } from 'virtual-exporters/internal';

export const EndReasons = {
  Released: 'Released',
  Expired: 'Expired',
} as const;

export type LeaseEnd =
  | { readonly ended: true; readonly reason: 'Released' | 'Expired'; readonly message: string }
  /** Still running; `expiresAt` is when to look again (absent: only a release ends it). */
  | { readonly ended: false; readonly expiresAt?: number };

/** The expiry time of a lease, or `undefined` when it has none (yet). */
export function expiryOf(lease: Lease): number | undefined {
  const endTime = lease.spec.endTime;
  if (endTime !== undefined) {
    const end = Date.parse(endTime);
    return Number.isNaN(end) ? undefined : end;
  }
  const begin = lease.status?.beginTime;
  const duration = tryParseDuration(lease.spec.duration);
  if (!lease.status?.exporterRef || begin === undefined || duration === undefined) return undefined;
  const start = Date.parse(begin);
  return Number.isNaN(start) ? undefined : start + duration;
}

/** Decides whether a not-ended lease ends now. */
export function decideLeaseEnd(lease: Lease, now: number): LeaseEnd {
  if (lease.spec.release === true) {
    return { ended: true, reason: 'Released', message: 'the client released the lease' };
  }
  const expiresAt = expiryOf(lease);
  if (expiresAt === undefined) return { ended: false };
  if (expiresAt <= now) {
    return {
      ended: true,
      reason: 'Expired',
      message: lease.status?.exporterRef
        ? 'the lease expired'
        : 'the lease reached its end time before it began',
    };
  }
  return { ended: false, expiresAt };
}
