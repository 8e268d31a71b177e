// What the lab and the simulation (the virtual-exporters-tools package) run of the controller: the
// manager in their own process, its logger, and the command-line helper both CLIs share. Not an API.
export { startManager, type Manager } from './manager';
export { createLogger, type LogLevel } from './process/logger';
export { parseCommand } from './process/parse-command';
// The ReplicaFailure a pass of several failed kinds writes: the simulation's oracle reads it back.
export { replicaFailureOf } from './reconciler/execution-record';
// The raised warm buffer as the planner computes it, and the demand history's object as the
// controller reads and writes it: the simulation seeds recorded demand and expects the raise.
export {
  decideForecast,
  effectiveBuffer,
  evaluateSchedules,
  forecastSettingsOf,
  startupP95Ms,
  DEMAND_INTERVAL_MS,
  DEMAND_MAX_BUCKETS,
  type DemandRecord,
  type EffectiveBuffer,
  type ForecastDecision,
} from './planner';
export { demandObject, demandObjectName, parseDemand } from './reconciler/demand/demand-config-map';
