/**
 * Expectations (controller-runtime's name): writes the executor applied that the informer caches do
 * not show yet, per ExporterSet key. The planner reads them as `InFlight`, so a pass that runs before
 * the watch event of its own create arrives neither creates a twin nor deletes twice.
 *
 * An entry is dropped when the reconciler sees its effect in the cache (`settle`) or when it is older
 * than the timeout: a lost watch event must not freeze a set for ever, and the informer's re-list
 * brings the cache back to the truth long before the default two minutes pass. The timeout runs on
 * the clock's monotonic reading: a wall clock stepped forward must not expire a create the cache has
 * not shown yet (the next pass would create its twin), nor one stepped back hold it for the step.
 */
import type { InFlight, InFlightCreate } from '../planner';
import { elapsedOf, type Clock } from '../queue/clock';

export type ExpectationKind = keyof InFlight;

export interface Expectation {
  readonly kind: ExpectationKind;
  /** The Exporter (and Pod) name. */
  readonly name: string;
  /** CreateExporter: created as a standby. */
  readonly standby?: boolean;
  /** DeletePod: the uid of the Pod deleted, so its replacement counts as the effect. */
  readonly podUid?: string;
  /** LabelInstance: the labels patched onto each object, seen when the cache shows them. */
  readonly labels?: {
    readonly exporter?: Readonly<Record<string, string>>;
    readonly pod?: Readonly<Record<string, string>>;
    readonly configSecret?: Readonly<Record<string, string>>;
  };
  /** When it was applied: the clock's monotonic reading (`elapsedOf`). */
  readonly at: number;
}

export const DEFAULT_EXPECTATION_TIMEOUT_MS = 120_000;

export class Expectations {
  private readonly bySet = new Map<string, Map<string, Expectation>>();

  constructor(
    private readonly clock: Clock,
    readonly timeoutMs = DEFAULT_EXPECTATION_TIMEOUT_MS,
  ) {}

  /** Records an applied write of `kind` on `name` for the set `key` (replacing one of the same kind). */
  expect(key: string, entry: Omit<Expectation, 'at'>): void {
    let entries = this.bySet.get(key);
    if (!entries) {
      entries = new Map();
      this.bySet.set(key, entries);
    }
    entries.set(`${entry.kind}/${entry.name}`, { ...entry, at: elapsedOf(this.clock) });
  }

  /** Drops the entries the cache shows (`observed`) and the timed-out ones. */
  settle(key: string, observed: (entry: Expectation) => boolean): void {
    const entries = this.bySet.get(key);
    if (!entries) return;
    const now = elapsedOf(this.clock);
    for (const [id, entry] of entries) {
      if (now - entry.at >= this.timeoutMs || observed(entry)) entries.delete(id);
    }
    if (entries.size === 0) this.bySet.delete(key);
  }

  /** The planner's view of what is in flight for the set. */
  inFlight(key: string): InFlight {
    const lists: Record<Exclude<ExpectationKind, 'creating'>, string[]> = {
      deleting: [],
      disabling: [],
      promoting: [],
      releasing: [],
      rendering: [],
      deletingPods: [],
      labelling: [],
    };
    const creating: InFlightCreate[] = [];
    for (const entry of this.bySet.get(key)?.values() ?? []) {
      if (entry.kind === 'creating') creating.push({ name: entry.name, standby: entry.standby === true });
      else lists[entry.kind].push(entry.name);
    }
    const result: { -readonly [K in ExpectationKind]?: InFlight[K] } = {};
    if (creating.length > 0) result.creating = creating;
    for (const [kind, names] of Object.entries(lists)) {
      if (names.length > 0) result[kind as Exclude<ExpectationKind, 'creating'>] = names;
    }
    return result;
  }

  /** Whether anything is in flight for the set. */
  pending(key: string): number {
    return this.bySet.get(key)?.size ?? 0;
  }

  /** The set is gone: nothing of it is expected any more. */
  forget(key: string): void {
    this.bySet.delete(key);
  }
}
