/**
 * When this controller first observed each fact of a set's world, on its own clock (SPEC §3.17): the
 * planner measures startup timeouts, credential waits and the startup backoff from these times, never
 * from the API server's or the kubelet's timestamps, which another clock wrote. Kept per set and
 * rebuilt on every pass from the facts the pass sees, so an object that went is pruned at once;
 * `forget` drops a set. A restarted controller starts empty: the facts of its first look at a set are
 * dated by the other clocks, clamped (planner clocks.ts).
 *
 * The memory keeps the clock's monotonic readings and hands the planner wall times made from them at
 * each pass (`wallTimeOf`): a wall clock stepped forward does not age what was seen (a startup timeout
 * would fire early), nor does one stepped back push it out. With a clock that has no monotonic
 * reading, a time now in the future is taken as now once and kept, so no timer is pushed out for ever.
 */
import { ExporterConditionTypes, type Exporter } from 'virtual-exporters/internal';
import {
  listOf,
  type InstanceObservation,
  type InstanceSnapshot,
  type ObservedTimes,
  type PodView,
} from '../planner';
import { placementOf } from './instance-lifecycle';
import { wallTimeOf } from '../queue/clock';

/** Monotonic readings (`Clock.elapsed`). */
interface SetFacts {
  /** The first pass over the set. */
  since: number;
  facts: Map<string, number>;
}

/**
 * One pass's view of the memory: `see` dates a fact seen now, `recall` carries a fact seen before
 * (undefined if never), `done` keeps only the facts this pass saw or recalled.
 */
export interface ObservationPass {
  readonly since: number;
  see(id: string): number;
  recall(id: string): number | undefined;
  done(): void;
}

function realisationEnded(pod: PodView | undefined, observation: InstanceObservation | undefined): boolean {
  if (pod !== undefined) return pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
  return observation?.state === 'exited' || observation?.state === 'failed';
}

/** Online and Registered: what the planner calls ready. */
function exporterReady(exporter: Exporter): boolean {
  const conditions = listOf<{ type?: unknown; status?: unknown }>(exporter.status?.conditions);
  const holds = (type: string) => conditions.some((c) => c.type === type && c.status === 'True');
  return holds(ExporterConditionTypes.Online) && holds(ExporterConditionTypes.Registered);
}

export class FirstObserved {
  private readonly sets = new Map<string, SetFacts>();

  /** A pass at wall time `now`, `elapsed` the clock's monotonic reading (its wall time if it has none). */
  pass(key: string, now: number, elapsed = now): ObservationPass {
    const entry = this.sets.get(key) ?? { since: elapsed, facts: new Map<string, number>() };
    this.sets.set(key, entry);
    // A reading in the future (only a wall clock set back makes one): now, once, so timers run out.
    entry.since = Math.min(entry.since, elapsed);
    const seen = new Map<string, number>();
    const known = (id: string): number | undefined => {
      const at = seen.get(id) ?? entry.facts.get(id);
      return at === undefined ? undefined : Math.min(at, elapsed);
    };
    const wall = (at: number) => wallTimeOf(at, { wall: now, elapsed });
    return {
      since: wall(entry.since),
      see(id) {
        const at = known(id) ?? elapsed;
        seen.set(id, at);
        return wall(at);
      },
      recall(id) {
        const at = known(id);
        if (at !== undefined) seen.set(id, at);
        return at === undefined ? undefined : wall(at);
      },
      done() {
        entry.facts = seen;
      },
    };
  }

  forget(key: string): void {
    this.sets.delete(key);
  }
}

/**
 * The observed times of one instance: its Exporter, its current Pod (or, for a lifecycle provisioner,
 * its current placement), that realisation's end, and its exporter ready while it lasts (kept once
 * seen), by uid.
 */
export function observeInstance(
  pass: ObservationPass,
  instance: Pick<InstanceSnapshot, 'exporter' | 'pod' | 'observation'>,
): ObservedTimes {
  const exporterId = instance.exporter.metadata?.uid ?? `exporter/${instance.exporter.metadata?.name ?? ''}`;
  const { pod, observation } = instance;
  if (pod === undefined && (observation === undefined || observation.state === 'absent')) {
    return { exporter: pass.see(exporterId) };
  }
  const podId =
    pod !== undefined
      ? (pod.metadata?.uid ?? `pod/${pod.metadata?.name ?? ''}`)
      : `${exporterId}/placed/${JSON.stringify(placementOf(instance.exporter) ?? {})}`;
  const readyId = `${podId}/ready`;
  const podReady = exporterReady(instance.exporter) ? pass.see(readyId) : pass.recall(readyId);
  return {
    exporter: pass.see(exporterId),
    pod: pass.see(podId),
    ...(realisationEnded(pod, observation) ? { podEnded: pass.see(`${podId}/ended`) } : {}),
    ...(podReady !== undefined ? { podReady } : {}),
  };
}
