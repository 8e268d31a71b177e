// What the lab and the simulation (the virtual-exporters-tools package) run of the controller: the
// manager in their own process, its logger, and the command-line helper both CLIs share. Not an API.
export { startManager, type Manager } from './manager';
export { createLogger, type LogLevel } from './process/logger';
export { parseCommand } from './process/parse-command';
// The ReplicaFailure a pass of several failed kinds writes: the simulation's oracle reads it back.
export { replicaFailureOf } from './reconciler/execution-record';
