/**
 * Leader election on a `coordination.k8s.io/v1` Lease (`--leader-elect`), so two controller replicas
 * never act on the same pools (client-node has no helper; this follows client-go's algorithm).
 *
 * - The Lease `exporter-set-controller-<provisioner>` in the controller's namespace names the holder
 *   (`holderIdentity`: pod name or hostname plus a random suffix, so a restarted pod is a new
 *   candidate). Every write carries the resourceVersion that was read: two candidates racing for an
 *   expired lease cannot both win (the loser gets 409).
 * - A candidate takes the lease when it is free (no holder) or when the holder has not renewed for
 *   `leaseDuration`, measured on the candidate's own clock from when it last saw the record change —
 *   never by comparing clocks across machines.
 * - The leader renews every `retryPeriod`. If it cannot renew for `renewDeadline` (shorter than
 *   `leaseDuration`), it stops leading before anyone else may start: `onStoppedLeading` fires
 *   and the caller must stop acting (controller-runtime exits the process; a fresh start rebuilds
 *   its state). The elector itself keeps campaigning until `stop()`.
 * - `stop()` releases a held lease (holder cleared, duration 1 s), so a standby takes over at its
 *   next retry instead of waiting out the lease. `onStoppedLeading` is not called by `stop()`.
 *
 * The Lease is written with the verbs the installer grants: get, create, update. Its name and
 * namespace and the candidate's identity are election-names.ts.
 */
import { V1MicroTime, type CoordinationV1Api, type V1Lease, type V1LeaseSpec } from '@kubernetes/client-node';
import { isNotFound } from '../kube/api-errors';
import { systemClock, type Clock } from '../queue/clock';
import { defaultIdentity } from './election-names';

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
/** Candidates retry after `retryPeriod` plus up to this fraction more, so they do not move in step. */
const JITTER = 0.2;

export interface LeaderElectionOptions {
  readonly coordination: CoordinationV1Api;
  readonly namespace: string;
  /** The Lease name, `leaderElectionId(provisioner)`. */
  readonly name: string;
  /** @default defaultIdentity() */
  readonly identity?: string;
  /** How long a non-renewed lease keeps others out. @default 15 s */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps leading without a successful renewal. @default 10 s */
  readonly renewDeadlineMs?: number;
  /** Time between attempts to acquire or renew. @default 2 s */
  readonly retryPeriodMs?: number;
  /** @default systemClock */
  readonly clock?: Clock;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** This process now leads: start acting. */
  readonly onStartedLeading?: () => void;
  /** This process lost the lease (not called by `stop()`): stop acting at once. */
  readonly onStoppedLeading?: () => void;
  /** The holder seen in the Lease changed (undefined: released). */
  readonly onNewLeader?: (identity: string | undefined) => void;
  /** A failed read or write of the Lease (409 conflicts included); the elector retries. */
  readonly onError?: (error: unknown) => void;
}

export class LeaderElector {
  readonly identity: string;
  private readonly clock: Clock;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private leading = false;
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private cancelWatchdog?: () => void;
  /** The last record this process wrote naming itself, for renewals and the release. */
  private written?: V1Lease;
  private observed?: { resourceVersion?: string; holder?: string; at: number };

  constructor(private readonly options: LeaderElectionOptions) {
    this.identity = options.identity ?? defaultIdentity();
    this.clock = options.clock ?? systemClock;
    this.leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    if (!(this.leaseDurationMs > this.renewDeadlineMs)) {
      throw new RangeError('leader election: leaseDuration must be greater than renewDeadline');
    }
    if (!(this.renewDeadlineMs > this.retryPeriodMs * (1 + JITTER))) {
      throw new RangeError(`leader election: renewDeadline must be greater than ${1 + JITTER} × retryPeriod`);
    }
    if (!(this.retryPeriodMs > 0)) throw new RangeError('leader election: retryPeriod must be positive');
  }

  /** True while this process holds the lease and may act. */
  isLeader(): boolean {
    return this.leading;
  }

  /** The holder last seen in the Lease. */
  currentLeader(): string | undefined {
    return this.observed?.holder;
  }

  /** Starts campaigning (idempotent). */
  start(): void {
    if (this.loop || this.stopped) return;
    this.loop = this.campaign();
  }

  /** Stops campaigning, waits for the request in flight and releases the lease if held. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake?.();
    await this.loop;
    this.leading = false;
    this.cancelWatchdog?.();
    if (this.written) await this.release(this.written);
  }

  private async campaign(): Promise<void> {
    while (!this.stopped) {
      const held = await this.tryAcquireOrRenew();
      if (this.stopped) break;
      if (held) {
        this.armWatchdog();
        if (!this.leading) {
          this.leading = true;
          this.notify(this.options.onStartedLeading);
        }
      } else if (this.leading && this.observed?.holder !== this.identity) {
        this.lose(); // someone else holds it now
      }
      const jitter = this.leading ? 0 : JITTER * (this.options.random ?? Math.random)();
      await this.sleep(this.retryPeriodMs * (1 + jitter));
    }
  }

  /** One attempt; true when this process holds the lease afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { coordination, namespace, name } = this.options;
    const now = this.clock.now();
    let current: V1Lease;
    try {
      current = await coordination.readNamespacedLease({ name, namespace });
    } catch (error) {
      if (!isNotFound(error)) return this.failed(error);
      try {
        const created = await coordination.createNamespacedLease({
          namespace,
          body: { metadata: { name, namespace }, spec: this.spec(now, undefined) },
        });
        return this.wrote(created);
      } catch (createError) {
        return this.failed(createError); // 409: another candidate created it first
      }
    }
    this.observe(current, now);
    const holder = current.spec?.holderIdentity || undefined;
    if (holder !== undefined && holder !== this.identity && this.observed!.at + this.leaseDurationMs > now) {
      return false; // held by another, not expired
    }
    try {
      const replaced = await coordination.replaceNamespacedLease({
        name,
        namespace,
        body: {
          metadata: { name, namespace, resourceVersion: current.metadata?.resourceVersion },
          spec: this.spec(now, current.spec),
        },
      });
      return this.wrote(replaced);
    } catch (error) {
      return this.failed(error); // 409: the record changed since it was read
    }
  }

  /** The record naming this process, continuing `previous`. */
  private spec(now: number, previous: V1LeaseSpec | undefined): V1LeaseSpec {
    const renewing = previous?.holderIdentity === this.identity;
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.leaseDurationMs / 1000)),
      acquireTime: renewing && previous?.acquireTime ? previous.acquireTime : new V1MicroTime(now),
      renewTime: new V1MicroTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (renewing || previous === undefined ? 0 : 1),
    };
  }

  private wrote(lease: V1Lease): boolean {
    this.written = lease;
    this.observe(lease, this.clock.now());
    return true;
  }

  private failed(error: unknown): boolean {
    try {
      this.options.onError?.(error);
    } catch {
      // A failing reporter must not stop the election.
    }
    return false;
  }

  /** Remembers when the record last changed, on this process's clock. */
  private observe(lease: V1Lease, now: number): void {
    const resourceVersion = lease.metadata?.resourceVersion;
    const holder = lease.spec?.holderIdentity || undefined;
    if (this.observed?.resourceVersion === resourceVersion) return;
    const previousHolder = this.observed?.holder;
    this.observed = { resourceVersion, holder, at: now };
    if (holder !== this.identity && this.written) this.written = undefined; // no longer ours to release
    if (holder !== previousHolder) this.notify(() => this.options.onNewLeader?.(holder));
  }

  /** Loses leadership unless a renewal succeeds within renewDeadline. */
  private armWatchdog(): void {
    this.cancelWatchdog?.();
    this.cancelWatchdog = this.clock.setTimeout(() => {
      this.cancelWatchdog = undefined;
      if (this.leading && !this.stopped) this.lose();
    }, this.renewDeadlineMs);
  }

  private lose(): void {
    this.leading = false;
    this.cancelWatchdog?.();
    this.cancelWatchdog = undefined;
    this.notify(this.options.onStoppedLeading);
  }

  /** Clears the holder so a standby takes over at its next retry. */
  private async release(lease: V1Lease): Promise<void> {
    const { coordination, namespace, name } = this.options;
    const now = new V1MicroTime(this.clock.now());
    try {
      await coordination.replaceNamespacedLease({
        name,
        namespace,
        body: {
          metadata: { name, namespace, resourceVersion: lease.metadata?.resourceVersion },
          spec: {
            leaseDurationSeconds: 1,
            acquireTime: now,
            renewTime: now,
            leaseTransitions: lease.spec?.leaseTransitions,
          },
        },
      });
    } catch (error) {
      this.failed(error); // 409: someone took over already; nothing to release
    }
    this.written = undefined;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const cancel = this.clock.setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        cancel();
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** Runs a callback; a throwing callback must not stop the election. */
  private notify(callback: (() => void) | undefined): void {
    try {
      callback?.();
    } catch (error) {
      this.failed(error);
    }
  }
}
