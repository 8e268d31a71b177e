/**
 * The pure planner of the ExporterSet controller: snapshot in, plan out (SPEC §3). See plan.ts for the
 * stages and the scaling rules, ARCHITECTURE.md for the file of each §3 rule, and model/snapshot.ts for
 * what the reconciler must provide. What the reconciler, the tools and the tests use is exported here
 * by name, stage by stage.
 */

// The pass: plan, and the status once the executor ran.
export { plan } from './plan';
export { finalizeStatus, type Plan } from './plan-result';

// model: the snapshot, actions, events, time, wire guards, ordinals.
export type { Action, ActionType, LabelInstanceAction } from './model/actions';
export { setCondition } from './model/conditions';
export {
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  type DemandBucket,
  type DemandHistory,
} from './model/demand-history';
export type { ServedLease, StartupSample } from './model/demand-samples';
export { actionEvents, type PlanEvent } from './model/events';
export { desiredExporter, type ExporterMergePatch } from './model/exporter';
export { ordinalsToRecord } from './model/ordinals';
export {
  DEFAULT_PLANNER_OPTIONS,
  resolveOptions,
  type DemandPeer,
  type InFlight,
  type InFlightCreate,
  type InstanceObservation,
  type InstanceSnapshot,
  type LeaseCheck,
  type PlannerOptions,
  type PlannerSnapshot,
  type PodView,
  type PodWriteFailure,
  type SecretView,
} from './model/snapshot';
export { toMillis, toTimestamp, type ObservedTimes } from './model/time';
export { conditionIsTrue, listOf, nameOf } from './model/wire-guards';

// spec: the spec read and checked.
export { pinnedView, resolvePin, viewOf, type Pin } from './spec/pinning';
export { currentRevision, revisionInputs } from './spec/revision';
export { desiredRevision, recordedRevisions, type RecordedRevision } from './spec/revision-history';
export type { SpecValues } from './spec/spec-values';

// demand: the leases a set counts, its recorded demand and objectives.
export {
  MAX_LAST_ARRIVAL_UIDS,
  MAX_SERVED,
  MAX_STARTUPS,
  advanceHistory,
  bucketStart,
  emptyRecord,
  recordPass,
  startupP95Ms,
  type DemandObservation,
  type DemandRecord,
  type ObservedLease,
} from './demand/demand-record';
export { MAX_CROWDING, MAX_RECENT_ARRIVALS } from './demand/arrival-crowding';
export { waitMs } from './demand/lease-objectives';
export { leaseOwner, ownedDemand } from './demand/lease-owner';
// The raised warm buffer (schedules, forecast): the simulation's oracle expects what these give.
export {
  decideForecast,
  forecastSettingsOf,
  type ForecastDecision,
  type ForecastInputs,
} from './demand/forecast-buffer';
export { evaluateSchedules, type ScheduleEvaluation } from './demand/schedules';
export {
  effectiveBuffer,
  type BufferRaise,
  type BufferSpec,
  type EffectiveBuffer,
} from './demand/warm-buffer-raise';

// observe: instances classified, leases, ownership.
export { inFlightNames, type InFlightNames } from './observe/in-flight';
export type { InstanceState, InstanceView } from './observe/instance-view';
export { classifyInstance, type ClassifyContext } from './observe/instances';
export { isLeaseEnded, leaseConcernsSet, leasedExporterNames } from './observe/leases';
export {
  concernsSet,
  controllingSetName,
  isOwnedBy,
  labelledSetName,
  ownedByExporter,
  owningExporterName,
  setNameOfExporter,
  type OwnedMetadata,
} from './observe/ownership';
export { instanceRuntime, type InstanceRuntime } from './observe/runtime';
export { readStatus } from './observe/status-read';

// decide and status: the startup backoff, the counters, the status and the executor's outcome.
export { backoffDelay } from './decide/startup-failures';
export { statusEquals, type ObservedOutcome, type StatusInputs } from './status/calculate-status';
export { conditionEvents } from './status/condition-events';
export { statusCounters, type StatusCounters } from './status/counters';
export { WRITE_REASONS, type ExecutionOutcome } from './status/outcome';
