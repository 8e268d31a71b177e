/**
 * Plays a load plan against the lab's cluster as Jumpstarter clients would: at each arrival it creates
 * a Lease selecting the pool's template labels (`jmp create lease`), and once Jumpstarter assigns it,
 * the holder keeps it for its hold time and releases it (`jmp release`); an abandoned lease runs to
 * its duration. It records every lease's life from the Lease objects (`status.beginTime`,
 * `status.endTime`, conditions) for the summary and the chart.
 *
 * It sees the Leases in the lab cluster's watch-fed view and creates and releases them with the
 * simulator's lease client: on the test cluster straight into the store (no HTTP), on a real server as
 * requests of the simulators' identity — either way the controller's request counts hold its own alone.
 */
import { formatDuration, LeaseConditionTypes, type Lease } from 'virtual-exporters/internal';
import type { AnyLeaseClient, Clock } from 'virtual-exporters-test-cluster';
import type { LabView } from './lab-cluster';
import type { LeaseArrival } from './load-profile';
import type { LeaseRecord } from './summary';

/** Where a pool's leases go and what they select. */
export interface LoadTarget {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface LoadDriverOptions {
  /** Where the Leases are seen (a watch-fed view). */
  readonly view: LabView;
  /** Creates and releases them; every call is awaited. */
  readonly leases: AnyLeaseClient;
  readonly clock: Clock;
  /** The plan, with times already in wall ms (the plan's lab times divided by the speed-up). */
  readonly arrivals: readonly LeaseArrival[];
  readonly targets: ReadonlyMap<string, LoadTarget>;
  /** Jumpstarter assigned a lease of the run to an Exporter. */
  readonly onAssigned?: (namespace: string, exporter: string) => void;
  /** A lease could not be created or released. */
  readonly onError?: (error: Error) => void;
}

export interface LoadDriver {
  /** Every lease created so far, as last seen. */
  records(): LeaseRecord[];
  /** Leases created and neither assigned nor ended, per pool. */
  waiting(): Map<string, number>;
  /** Arrivals not yet played. */
  remaining(): number;
  /** Cancels the arrivals and releases still to come; leaves the leases as they are. */
  stop(): void;
}

interface MutableRecord {
  name: string;
  namespace: string;
  pool: string;
  createdAt: number;
  holdMs: number | null;
  assignedAt?: number;
  endedAt?: number;
  endReason?: string;
}

export function startLoad(options: LoadDriverOptions): LoadDriver {
  const { view, leases, clock } = options;
  const records = new Map<string, MutableRecord>();
  const timers = new Set<() => void>();
  let played = 0;
  let stopped = false;
  const fail = (error: unknown) =>
    options.onError?.(error instanceof Error ? error : new Error(String(error)));

  const later = (ms: number, fn: () => void) => {
    const cancel = clock.setTimeout(() => {
      timers.delete(cancel);
      if (!stopped) fn();
    }, ms);
    timers.add(cancel);
  };

  const observe = (lease: Lease) => {
    const record = records.get(`${lease.metadata.namespace}/${lease.metadata.name}`);
    if (record === undefined) return;
    const status = lease.status;
    if (record.assignedAt === undefined && status?.exporterRef?.name && status.beginTime) {
      record.assignedAt = Date.parse(status.beginTime);
      options.onAssigned?.(record.namespace, status.exporterRef.name);
      if (record.holdMs !== null) later(record.holdMs, () => void release(record));
    }
    if (record.endedAt === undefined && status?.ended === true) {
      record.endedAt = status.endTime ? Date.parse(status.endTime) : clock.now();
      record.endReason = endReason(lease);
    }
  };

  const release = async (record: MutableRecord) => {
    if (record.endedAt !== undefined) return;
    try {
      await leases.release(record.namespace, record.name);
    } catch (error) {
      fail(error);
    }
  };

  const unwatch = view.watch('Lease', (event) => {
    if (event.type === 'ADDED' || event.type === 'MODIFIED') observe(event.object as unknown as Lease);
  });

  const arrive = async (arrival: LeaseArrival) => {
    played += 1;
    const target = options.targets.get(arrival.pool);
    if (target === undefined) {
      fail(new Error(`the plan names pool ${arrival.pool}, which the lab does not run`));
      return;
    }
    const createdAt = clock.now();
    try {
      const lease = await leases.create({
        namespace: target.namespace,
        selector: { matchLabels: { ...target.labels } },
        duration: formatDuration(Math.max(1, Math.round(arrival.durationMs))),
        clientName: 'lab',
      });
      const record: MutableRecord = {
        name: lease.metadata.name ?? '',
        namespace: target.namespace,
        pool: arrival.pool,
        createdAt,
        holdMs: arrival.holdMs,
      };
      records.set(`${record.namespace}/${record.name}`, record);
      observe(lease);
      // Its watch events may have come while the answer was on its way (a real server): catch up.
      const seen = view.get('Lease', record.namespace, record.name);
      if (seen !== undefined) observe(seen as unknown as Lease);
    } catch (error) {
      fail(error);
    }
  };

  // Arrivals not played yet. One that was due before `stop()` is played then even when a busy event
  // loop has not run its timer yet: the plan's leases of the load phase are all created.
  const startedAt = clock.now();
  const unplayed = new Set<LeaseArrival>(options.arrivals);
  const play = (arrival: LeaseArrival) => {
    if (unplayed.delete(arrival)) void arrive(arrival);
  };
  for (const arrival of options.arrivals) later(arrival.atMs, () => play(arrival));

  return {
    records: () =>
      [...records.values()].map(({ name, pool, createdAt, assignedAt, endedAt, endReason }) => ({
        name,
        pool,
        createdAt,
        ...(assignedAt !== undefined ? { assignedAt } : {}),
        ...(endedAt !== undefined ? { endedAt } : {}),
        ...(endReason !== undefined ? { endReason } : {}),
      })),
    waiting() {
      const out = new Map<string, number>();
      for (const r of records.values()) {
        if (r.assignedAt === undefined && r.endedAt === undefined)
          out.set(r.pool, (out.get(r.pool) ?? 0) + 1);
      }
      return out;
    },
    remaining: () => options.arrivals.length - played,
    stop() {
      const now = clock.now();
      for (const arrival of [...unplayed]) if (startedAt + arrival.atMs <= now) play(arrival);
      stopped = true;
      for (const cancel of timers) cancel();
      timers.clear();
      unwatch();
    },
  };
}

/** `Unsatisfiable`/`Invalid` when one of them is True, else the reason of `Ready=False` (Released, Expired). */
function endReason(lease: Lease): string {
  const conditions = lease.status?.conditions ?? [];
  const terminal = conditions.find(
    (c) =>
      (c.type === LeaseConditionTypes.Unsatisfiable || c.type === LeaseConditionTypes.Invalid) &&
      c.status === 'True',
  );
  if (terminal) return terminal.type;
  const ready = conditions.find((c) => c.type === LeaseConditionTypes.Ready && c.status === 'False');
  return ready?.reason ?? 'Ended';
}
