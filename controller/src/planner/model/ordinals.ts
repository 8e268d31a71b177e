/**
 * §3.10 ordinals: instance names are `<set>-<n>`, n from `status.nextOrdinal` and above every ordinal
 * seen on an instance, a create in flight or a Lease, never reused. Ordinals are for the names we
 * create: an adopted name of another shape (`<set>-x7k2p`) has none and moves nothing. The status
 * (status/calculate-status.ts) keeps only the ordinals of creates that landed; the names of a pass's
 * creates are given in decide/names.ts.
 */
import {
  ExporterSetStatusBounds,
  instanceOrdinal,
  type ExporterSet,
  type Lease,
} from 'virtual-exporters/internal';
import type { Action, CreateExporterAction } from './actions';
import { count, nameOf } from './wire-guards';

/**
 * Ordinals from here on are never issued: a name beyond it cannot be an old instance of the set, so it
 * does not move the counter — else one hostile Lease naming `<set>-9007199254740991` would leave no safe
 * name to issue. The CRD bounds `status.nextOrdinal` by it, and observe/status-read.ts checks it.
 */
const MAX_ORDINAL = ExporterSetStatusBounds.nextOrdinal;

/**
 * The lowest ordinal no name can collide with: status.nextOrdinal, and one above every ordinal on an
 * Exporter of the snapshot (owned or labelled; detached and deleting ones too), a create in flight, or
 * a Lease's `status.exporterRef` — so a lost status never makes a name point at a new instance.
 *
 * A name `generateName` made (upstream's instances, `<set>-` and five characters) can be all digits,
 * `<set>-24567`: it reads as an ordinal and moves the counter past it, so the name is never issued
 * again once that instance is gone. That costs at most a jump to 100000 (five digits), harmless.
 * Names of any other shape move nothing.
 *
 * Only the Exporter a Lease was assigned counts, not the one its spec pins: `status` is written by
 * Jumpstarter alone (a subresource), a pin by anyone who may create Leases, so made-up pins would push
 * the set's ordinals at will. A pin cannot take a later instance of that name either: Jumpstarter
 * ends a Lease pinned to an Exporter that does not exist at once (INTEROP §2, `ExporterNotFound`), and
 * one pinned to an instance that exists is assigned it (then `status.exporterRef` names it) or waits
 * on it, while the Exporter itself keeps its ordinal counted.
 */
export function firstFreeOrdinal(
  set: ExporterSet,
  names: Iterable<string>,
  leases: readonly Lease[],
): number {
  const setName = set.metadata?.name ?? '';
  let next = count(set.status?.nextOrdinal, 0);
  const see = (name: string | undefined): void => {
    const ordinal = name === undefined ? undefined : instanceOrdinal(setName, name);
    if (ordinal !== undefined && ordinal < MAX_ORDINAL) next = Math.max(next, ordinal + 1);
  };
  for (const name of names) see(name);
  for (const lease of leases) see(nameOf(lease.status?.exporterRef));
  return next;
}

/**
 * `nextOrdinal` after the executor ran: advanced only past the creates that were sent and landed, or
 * found their name taken by an Exporter the set does not own (that name is never tried again). A
 * create the API refused issued no name, so a set whose creates keep failing neither burns ordinals
 * nor rewrites its status (and wakes itself up) on every retry. A refused create that did land shows
 * in the cache, and the next pass's first free ordinal is above every instance it sees anyway.
 */
export function issuedNextOrdinal(
  planned: number,
  previous: number | undefined,
  creates: readonly CreateExporterAction[],
  applied: readonly { readonly type: string; readonly name?: string }[],
): number {
  const landed = new Set(applied.filter((a) => a.type === 'CreateExporter').map((a) => a.name));
  if (creates.every((a) => landed.has(a.name))) return planned;
  // The planner issued first, first + 1, ... to this pass's creates; keep what landed and never go back.
  const first = planned - creates.length;
  const issued = creates.filter((a) => landed.has(a.name)).map((a) => a.ordinal + 1);
  return Math.max(first, previous ?? 0, ...issued);
}

/**
 * The `nextOrdinal` to put on record before this plan's Exporter deletes are sent, or undefined when the
 * set's status already covers them. Once an instance is gone its name lives on only in
 * `status.nextOrdinal`, and the status is written after the pass's writes: a create whose status write
 * was lost (a failed write, a crash) followed by the delete of that instance and another lost write
 * would leave nothing that remembers the name, and the next pass would issue it again.
 */
export function ordinalsToRecord(set: ExporterSet, actions: readonly Action[]): number | undefined {
  const setName = set.metadata?.name ?? '';
  const recorded = set.status?.nextOrdinal;
  const persisted =
    typeof recorded === 'number' && Number.isInteger(recorded) && recorded <= MAX_ORDINAL ? recorded : 0;
  let needed = persisted;
  for (const action of actions) {
    if (action.type !== 'DeleteExporter') continue;
    const ordinal = instanceOrdinal(setName, action.name);
    if (ordinal !== undefined && ordinal < MAX_ORDINAL) needed = Math.max(needed, ordinal + 1);
  }
  return needed > persisted ? needed : undefined;
}
