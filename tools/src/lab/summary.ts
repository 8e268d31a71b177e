/**
 * The end-of-run summary of the lab, computed from what the run recorded: every lease's life, the
 * instances the pools created and recycled, and the controller's API requests. Pure, so the figures
 * a user reads are tested, not just printed.
 */

/** What the lab saw of one lease it created. */
export interface LeaseRecord {
  readonly name: string;
  readonly pool: string;
  /** Clock reading when the lab created it (`creationTimestamp` has whole seconds only). */
  readonly createdAt: number;
  /** `status.beginTime`: when Jumpstarter assigned it an exporter. */
  readonly assignedAt?: number;
  /** `status.endTime`, once ended. */
  readonly endedAt?: number;
  /** Why it ended (`Released`, `Expired`, `Unsatisfiable`, ...). */
  readonly endReason?: string;
}

/** Instances (Exporters of the pools) over the run. */
export interface InstanceTally {
  readonly created: number;
  /** Removed after serving a lease (ExitAndReplace, or a recycled in-place instance). */
  readonly recycled: number;
  /** Removed without having served a lease (scale-down, failed start). */
  readonly removed: number;
}

export interface Distribution {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface LabSummary {
  readonly leases: {
    readonly created: number;
    /** Assigned an exporter (whatever happened after). */
    readonly served: number;
    /** Ended without ever being assigned (Unsatisfiable, Invalid, expired while waiting). */
    readonly unserved: number;
    /** Neither assigned nor ended when the run stopped. */
    readonly pendingAtEnd: number;
    readonly released: number;
    readonly expired: number;
  };
  /** Lease wait, pending → assigned, ms of wall time; absent when no lease was served. */
  readonly waitMs?: Distribution;
  readonly instances: InstanceTally;
  readonly requests: {
    readonly total: number;
    /** create, update, patch, delete, deletecollection. */
    readonly writes: number;
    readonly byVerb: Readonly<Record<string, number>>;
  };
}

/**
 * The nearest-rank percentile (`p` in (0, 100]) of `values`: the smallest value with at least p % of
 * the values at or below it, so it is always one of the measured values. `undefined` when empty.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile: p must be in (0, 100] (got ${p})`);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

export function distribution(values: readonly number[]): Distribution | undefined {
  if (values.length === 0) return undefined;
  const at = (p: number) => percentile(values, p) as number;
  return {
    count: values.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: Math.max(...values),
    mean: values.reduce((sum, v) => sum + v, 0) / values.length,
  };
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** How many of the requests counted by verb were writes. */
export function writesOf(byVerb: Readonly<Record<string, number | undefined>>): number {
  return Object.entries(byVerb)
    .filter(([verb]) => WRITE_VERBS.has(verb))
    .reduce((sum, [, n]) => sum + (n ?? 0), 0);
}

export function summarize(input: {
  readonly leases: readonly LeaseRecord[];
  readonly instances: InstanceTally;
  readonly requestsByVerb: Readonly<Record<string, number | undefined>>;
}): LabSummary {
  const served = input.leases.filter((l) => l.assignedAt !== undefined);
  const byVerb: Record<string, number> = {};
  for (const [verb, count] of Object.entries(input.requestsByVerb)) {
    if (count) byVerb[verb] = count;
  }
  const total = Object.values(byVerb).reduce((sum, n) => sum + n, 0);
  const writes = writesOf(byVerb);
  return {
    leases: {
      created: input.leases.length,
      served: served.length,
      unserved: input.leases.filter((l) => l.assignedAt === undefined && l.endedAt !== undefined).length,
      pendingAtEnd: input.leases.filter((l) => l.assignedAt === undefined && l.endedAt === undefined).length,
      released: input.leases.filter((l) => l.endReason === 'Released').length,
      expired: input.leases.filter((l) => l.endReason === 'Expired').length,
    },
    ...optional(
      'waitMs',
      distribution(served.map((l) => Math.max(0, (l.assignedAt as number) - l.createdAt))),
    ),
    instances: input.instances,
    requests: { total, writes, byVerb },
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** One pool's leases in a run: how many, how many served, and their waits. */
export interface PoolReport {
  readonly pool: string;
  readonly leases: number;
  readonly served: number;
  readonly waitMs?: Distribution;
}

export function poolReport(pool: string, leases: readonly LeaseRecord[]): PoolReport {
  const mine = leases.filter((l) => l.pool === pool);
  const waits = mine.flatMap((l) =>
    l.assignedAt === undefined ? [] : [Math.max(0, l.assignedAt - l.createdAt)],
  );
  const waitMs = distribution(waits);
  return { pool, leases: mine.length, served: waits.length, ...(waitMs ? { waitMs } : {}) };
}
