/**
 * Observe, the pipeline's first step (plan.ts): the snapshot read once into the `World` every later
 * step uses (world.ts) — the spec with defaults (spec/spec-values.ts), the current template revision,
 * each Exporter classified (instances.ts), creates in flight, the pending demand this set counts
 * (demand/lease-owner.ts) and the first free ordinal (model/ordinals.ts). The warm buffer every later
 * step sees is the spec's raised by the windows of spec.schedules open now or within their lead time
 * (demand/schedules.ts) and by the forecast in mode Apply (demand/forecast-buffer.ts), the maximum of
 * all (demand/warm-buffer-raise.ts).
 */
import { Labels, type ExporterSet } from 'virtual-exporters/internal';
import { ownedDemand } from '../demand/lease-owner';
import { objectiveFields } from '../demand/lease-objectives';
import { decideForecast, forecastSettingsOf } from '../demand/forecast-buffer';
import { evaluateSchedules } from '../demand/schedules';
import { effectiveBuffer, raisedSpec, type BufferRaise } from '../demand/warm-buffer-raise';
import { instanceLabels } from '../model/exporter';
import { firstFreeOrdinal } from '../model/ordinals';
import { resolveOptions, type PlannerSnapshot } from '../model/snapshot';
import { resolvePin, viewOf } from '../spec/pinning';
import { currentRevision } from '../spec/revision';
import { recordedRevisions } from '../spec/revision-history';
import { specValues } from '../spec/spec-values';
import { inFlightNames } from './in-flight';
import { classifyInstance, type ClassifyContext } from './instances';
import {
  endedLeaseNames,
  everLeasedExporterNames,
  leasedExporterNames,
  pendingDemand,
  type PendingDemand,
} from './leases';
import { readStatus } from './status-read';
import type { World } from './world';

/** The pending leases this set counts (§3.3), one set per lease where selectors overlap (lease-owner.ts). */
function demandOf(snapshot: PlannerSnapshot, labels: Readonly<Record<string, string>>): PendingDemand {
  const found = pendingDemand(snapshot.leases, labels, snapshot.now);
  const self = { set: snapshot.set, classExists: snapshot.virtualTargetClass !== undefined };
  return { ...found, pending: ownedDemand(found.pending, self, snapshot.peers) };
}

/** Every revision an Exporter of the set carries (detached and leaving ones included). */
function revisionsInUse(snapshot: PlannerSnapshot): ReadonlySet<string> {
  const found = new Set<string>();
  for (const { exporter } of snapshot.instances) {
    const revision = exporter.metadata?.labels?.[Labels.templateRevision];
    if (revision) found.add(revision);
  }
  return found;
}

export function observe(snapshot: PlannerSnapshot): World {
  const { now } = snapshot;
  const read = readStatus(snapshot.set.status, now);
  const revisions = recordedRevisions(snapshot.set, snapshot.revisions ?? []);
  const pin = resolvePin(snapshot.set, revisions);
  const live: ExporterSet = { ...snapshot.set, status: read.status };
  const liveClass = snapshot.virtualTargetClass;
  // Pinned to a recorded revision: the set and class are seen as that revision recorded them.
  const { set, cls } = viewOf(live, liveClass, pin);
  const templateRevision = liveClass ? currentRevision(live, liveClass) : undefined;
  // Inputs too deep to hash (§3.19), or a pin to no recorded revision, keep the last revision: existing
  // instances stay current.
  const revision = !cls
    ? undefined
    : pin.kind === 'found'
      ? pin.revision.hash
      : pin.kind === 'unknown'
        ? (set.status?.templateRevision ?? templateRevision)
        : (templateRevision ?? set.status?.templateRevision);
  const inFlight = inFlightNames(snapshot.inFlight);
  const options = resolveOptions(snapshot.options);
  const baseSpec = specValues(set, cls);
  // Schedules are no part of a revision: the live set's apply, pinned or not.
  const schedules = evaluateSchedules(live.spec?.schedules, now, snapshot.startupP95Ms);
  const context: ClassifyContext = {
    set,
    revision,
    leased: leasedExporterNames(snapshot.leases),
    everLeased: everLeasedExporterNames(snapshot.leases),
    endedLeases: endedLeaseNames(snapshot.leases),
    inFlight,
    ...(baseSpec.recycle !== undefined ? { recycle: baseSpec.recycle } : {}),
    startup: {
      now,
      ...(snapshot.observingSince !== undefined ? { observingSince: snapshot.observingSince } : {}),
      timeoutMs: options.startupTimeoutMs,
      backoffMaxMs: options.startupBackoffMaxMs,
    },
  };
  const views = snapshot.instances.map((instance) => classifyInstance(instance, context));
  const known = new Set(views.map((v) => v.name));
  const creating = snapshot.inFlight?.creating ?? [];
  const labels = instanceLabels(set, revision ?? set.status?.templateRevision ?? '', false);
  const firstOrdinal = firstFreeOrdinal(set, [...known, ...creating.map((c) => c.name)], snapshot.leases);
  const demand = demandOf(snapshot, labels);
  const owned = views.filter((v) => v.state !== 'detached' && v.state !== 'deleting');
  const forecast = decideForecast({
    settings: forecastSettingsOf(set),
    spec: baseSpec,
    history: snapshot.demandHistory,
    now,
    ...(snapshot.startupP95Ms !== undefined ? { startupP95Ms: snapshot.startupP95Ms } : {}),
  });
  // Every raise of this pass, the open windows' and the forecast's (mode Apply); the
  // maximum holds, never above the ceiling.
  const raises: BufferRaise[] = [...schedules.raises, ...(forecast?.raise ? [forecast.raise] : [])];
  const buffer = effectiveBuffer(baseSpec, raises);
  return {
    set,
    cls,
    provisioner: snapshot.provisioner,
    now,
    options,
    spec: raisedSpec(baseSpec, buffer),
    baseSpec,
    buffer,
    schedules,
    ...(forecast !== undefined ? { forecast } : {}),
    ...(revision !== undefined ? { revision } : {}),
    pin,
    revisions,
    historyTracked: snapshot.revisions !== undefined,
    ...(templateRevision !== undefined ? { templateRevision } : {}),
    inUse: revisionsInUse(snapshot),
    inFlight,
    owned,
    virtualCreates: creating.filter((c) => !known.has(c.name)),
    inFlightCreates: creating.length,
    demand,
    firstOrdinal,
    ...(snapshot.leaseCheck !== undefined ? { leaseCheck: snapshot.leaseCheck } : {}),
    corrections: read.corrections.map((c) =>
      c.field === 'status.nextOrdinal' ? { ...c, used: `${c.used}: ${firstOrdinal}` } : c,
    ),
    objectives: objectiveFields(snapshot),
  };
}
