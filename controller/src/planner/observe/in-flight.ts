/**
 * The writes the executor applied that the cache does not show yet (model/snapshot.ts `InFlight`), as
 * name sets the rules look names up in.
 */
import type { InFlight } from '../model/snapshot';

/** In-flight writes as name sets. */
export interface InFlightNames {
  readonly creating: ReadonlyMap<string, boolean>;
  readonly deleting: ReadonlySet<string>;
  readonly disabling: ReadonlySet<string>;
  readonly promoting: ReadonlySet<string>;
  readonly releasing: ReadonlySet<string>;
  readonly rendering: ReadonlySet<string>;
  readonly deletingPods: ReadonlySet<string>;
  readonly labelling: ReadonlySet<string>;
}

export function inFlightNames(inFlight: InFlight | undefined): InFlightNames {
  return {
    creating: new Map((inFlight?.creating ?? []).map((c) => [c.name, c.standby])),
    deleting: new Set(inFlight?.deleting ?? []),
    disabling: new Set(inFlight?.disabling ?? []),
    promoting: new Set(inFlight?.promoting ?? []),
    releasing: new Set(inFlight?.releasing ?? []),
    rendering: new Set(inFlight?.rendering ?? []),
    deletingPods: new Set(inFlight?.deletingPods ?? []),
    labelling: new Set(inFlight?.labelling ?? []),
  };
}
