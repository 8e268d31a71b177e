/**
 * One instance as every rule after observe sees it: its state (one per instance, in the fixed
 * precedence of instances.ts) and the facts the rules need — ready, leased, revision, runtime, the
 * times on the controller's clock.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { InstanceSnapshot } from '../model/snapshot';
import type { InstanceRuntime } from './runtime';

export type InstanceState =
  | 'detached'
  | 'deleting'
  | 'leased'
  | 'retiring'
  | 'disabledByHand'
  | 'failed'
  | 'exited'
  | 'standby'
  | 'available'
  | 'offline'
  | 'starting';

export interface InstanceView {
  readonly name: string;
  /**
   * From the name `<set>-<n>`; undefined for names of another shape (an adopted `<set>-x7k2p`). A name
   * `generateName` made of digits only (`<set>-24567`) reads as an ordinal: it only breaks ties
   * among scale-down victims, and moves `nextOrdinal` past it (model/ordinals.ts `firstFreeOrdinal`).
   */
  readonly ordinal?: number;
  readonly state: InstanceState;
  /** `Online=True` and `Registered=True`: what Jumpstarter requires to assign it. */
  readonly ready: boolean;
  /** `spec.enabled` is not false. */
  readonly enabled: boolean;
  /** A non-ended Lease names it. */
  readonly leased: boolean;
  /** Some Lease, ended or not, was assigned to it. */
  readonly servedLease: boolean;
  /** Standby label, no Pod, no render or promotion in flight. */
  readonly standby: boolean;
  /** The template revision label, when the Exporter carries one. */
  readonly revision?: string;
  /**
   * Built from the set's current template revision: its label names it, or it has none (an instance
   * another controller made, adopted as current and labelled so: adoption.ts) — and not created before
   * an active requested recycle (requested-recycle.ts).
   */
  readonly current: boolean;
  /** Created before the set's active `recycleRequestedAt`: outdated until it is replaced. */
  readonly recycleRequested: boolean;
  /** What its realisation (Pod, or the provisioner's observation) is right now: runtime.ts. */
  readonly runtime: InstanceRuntime;
  /**
   * A realisation exists (even one going away) or its start is in flight: starting one now would
   * collide.
   */
  readonly podPresent: boolean;
  /** Its exporter was seen ready since the current Pod was created. */
  readonly everReady: boolean;
  /** Exporter creation time on the API server's clock (epoch ms; 0 when unknown): for ordering only. */
  readonly createdAt: number;
  /**
   * When the Exporter began, on the controller's clock (model/time.ts `factTime`): credential waits run
   * from it.
   */
  readonly since: number;
  /** When its current realisation began, on the controller's clock; startup timeouts run from it. */
  readonly podSince?: number;
  /** When the realisation ended (exited or failed, or its startup timed out), on the controller's clock. */
  readonly endedAt?: number;
  /** Why it ended, in the kubelet's (or the provisioner's) words. */
  readonly endMessage?: string;
  /** For `retiring`: why the controller disabled it. */
  readonly retiringReason?: ScaleReason;
  /**
   * `status.leaseRef` names a lease not known to have ended: Jumpstarter may have assigned a lease the
   * Lease cache does not show yet, so the instance is not deleted yet.
   */
  readonly leaseRefUnconfirmed: boolean;
  /** Online=True right now (a crashed exporter stays online until it is not seen for a while). */
  readonly online: boolean;
  /**
   * For a `starting` instance that wants a Pod but cannot have one yet: what it waits for from
   * Jumpstarter (the credential Secret's namespace/name, or the endpoint). Its wait runs from `since`.
   */
  readonly awaiting?: string;
  readonly source: InstanceSnapshot;
}
