/**
 * The Jumpstarter simulator's Lease transitions as steps over the port: end, assign, and mark Pending
 * with its retry backoff (INTEROP §2 step 6: 1 s doubling to 30 s), which an end or an assignment
 * forgets.
 */
import { LeaseConditionTypes, type Exporter, type Lease } from 'virtual-exporters/internal';
import type { ClusterPort, Step } from '../port';
import { findCondition, setCondition, type ConditionUpdate } from './conditions';
import { nameOf } from './namespace-index';
import { assignedStatus, patchStatus, writeEnd, writeLeaseOwner } from './writes';

export interface LeaseTransitions {
  end(lease: Lease, namespace: string, update: ConditionUpdate, now: number): Step<void>;
  /** False when the Lease was gone. */
  assign(
    lease: Lease,
    namespace: string,
    exporter: Exporter,
    grant: { readonly priority: number; readonly spotAccess: boolean },
    now: number,
  ): Step<boolean>;
  /** Sets Pending=True with the reason; returns when to retry. */
  markPending(lease: Lease, namespace: string, reason: string, message: string, now: number): Step<number>;
  /** Forgets the backoff of a deleted Lease. */
  forget(namespace: string, lease: string): void;
}

interface Backoff {
  attempts: number;
  retryAt: number;
}

export function createLeaseTransitions(
  port: ClusterPort,
  backoff: { readonly initialMs?: number; readonly maxMs?: number } = {},
): LeaseTransitions {
  const initialMs = backoff.initialMs ?? 1000;
  const maxMs = backoff.maxMs ?? 30_000;
  /** Pending backoff by `namespace/lease`. */
  const backoffs = new Map<string, Backoff>();
  const keyOf = (namespace: string, lease: Lease): string => `${namespace}/${nameOf(lease)}`;

  return {
    *end(lease, namespace, update, now) {
      yield* writeEnd(port, lease, namespace, update, now);
      backoffs.delete(keyOf(namespace, lease));
    },

    *assign(lease, namespace, exporter, grant, now) {
      if (!(yield* writeLeaseOwner(port, lease, namespace, exporter))) return false;
      backoffs.delete(keyOf(namespace, lease));
      const status = assignedStatus(lease, exporter, grant, now);
      return (yield* patchStatus(port, 'Lease', namespace, nameOf(lease), status)) !== undefined;
    },

    *markPending(lease, namespace, reason, message, now) {
      const current = findCondition(lease.status?.conditions, LeaseConditionTypes.Pending);
      if (current?.status !== 'True' || current.reason !== reason || current.message !== message) {
        const conditions = setCondition(
          lease.status?.conditions,
          { type: LeaseConditionTypes.Pending, status: 'True', reason, message },
          now,
        );
        yield* patchStatus(port, 'Lease', namespace, nameOf(lease), { ended: false, conditions });
      }
      const key = keyOf(namespace, lease);
      let next = backoffs.get(key);
      if (next === undefined || next.retryAt <= now) {
        const attempts = (next?.attempts ?? 0) + 1;
        const delay = Math.min(initialMs * 2 ** (attempts - 1), maxMs);
        next = { attempts, retryAt: now + delay };
        backoffs.set(key, next);
      }
      return next.retryAt;
    },

    forget(namespace, lease) {
      backoffs.delete(`${namespace}/${lease}`);
    },
  };
}
