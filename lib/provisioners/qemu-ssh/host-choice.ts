/**
 * Which host an instance goes to. Pure: hosts with a free slot, spread (fewest instances first), ties
 * broken by host name so every controller replica and every retry picks the same; `placements` counts
 * the set's other instances, including those placed earlier in the same pass. Hosts backed off after an
 * SSH failure come after every other host with room, and are left out entirely while one exists.
 */
import type { Placement } from '../provisioner';
import { HOST_ANNOTATION } from './constants';
import type { HostBackoff } from './host-backoff';
import type { ResolvedHost } from './parameters';

export interface HostCandidate {
  readonly host: ResolvedHost;
  readonly used: number;
}

export type HostChoice =
  | { readonly ok: true; readonly candidates: readonly HostCandidate[] }
  | { readonly ok: false; readonly message: string };

/** Instances per host name among `placements`. */
export function hostUsage(placements: readonly Placement[]): Map<string, number> {
  const used = new Map<string, number>();
  for (const p of placements) {
    const host = p[HOST_ANNOTATION];
    if (host !== undefined) used.set(host, (used.get(host) ?? 0) + 1);
  }
  return used;
}

/**
 * The hosts to try, best first; or why none can take the instance (every host full, or every host with
 * room backed off: the message names each such host and its last SSH error).
 */
export function chooseHosts(
  hosts: readonly ResolvedHost[],
  placements: readonly Placement[],
  backoff: HostBackoff,
  now: number,
): HostChoice {
  const used = hostUsage(placements);
  const withRoom = hosts
    .map((host) => ({ host, used: used.get(host.name) ?? 0 }))
    .filter((c) => c.used < c.host.slots)
    .sort((a, b) => a.used - b.used || (a.host.name < b.host.name ? -1 : a.host.name > b.host.name ? 1 : 0));
  if (withRoom.length === 0) {
    const summary = [...hosts]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((h) => `${h.name} ${used.get(h.name) ?? 0}/${h.slots}`)
      .join(', ');
    return {
      ok: false,
      message: `every host is full (${summary}); add hosts or slots to the class's parameters, or lower maxReplicas`,
    };
  }
  const ready = withRoom.filter((c) => backoff.backedOff(c.host.name, now) === undefined);
  if (ready.length > 0) return { ok: true, candidates: ready };
  const reasons = withRoom.map((c) => {
    const failure = backoff.backedOff(c.host.name, now)!;
    return `${c.host.name}: ${failure.error} (retried in ${Math.ceil((failure.until - now) / 1000)} s)`;
  });
  return { ok: false, message: `no host with a free slot can be reached: ${reasons.join('; ')}` };
}
