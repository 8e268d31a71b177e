/** Reading the cluster child's event log: when each object first reached a state. */
import type { EventRecord, ResourceName } from './cluster-service';

/** The first time each object of `resource` satisfied `when` (default: was added), by name. */
export function firstTimes(
  events: readonly EventRecord[],
  resource: ResourceName,
  when: (event: EventRecord) => boolean = (event) => event.type === 'ADDED',
): Map<string, number> {
  const times = new Map<string, number>();
  for (const event of events) {
    if (event.resource !== resource || times.has(event.name) || !when(event)) continue;
    times.set(event.name, event.at);
  }
  return times;
}

/** The `n`-th earliest of `times` (1-based), or undefined when there are fewer. */
export function nth(times: Iterable<number>, n: number): number | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[n - 1];
}

/** `later[name] - earlier[name]` for every name in both. */
export function gaps(earlier: ReadonlyMap<string, number>, later: ReadonlyMap<string, number>): number[] {
  const out: number[] = [];
  for (const [name, at] of later) {
    const start = earlier.get(name);
    if (start !== undefined) out.push(at - start);
  }
  return out;
}
