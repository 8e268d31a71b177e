/**
 * The pure planner of the ExporterSet controller: snapshot in, plan out (SPEC §3). See plan.ts for the
 * pipeline, ARCHITECTURE.md for the file of each §3 rule, and snapshot.ts for what the reconciler must
 * provide.
 */
export * from './actions';
export * from './adoption';
export * from './clocks';
export * from './conditions';
export * from './events';
export * from './exporter';
export * from './instances';
export * from './lease-owner';
export * from './leases';
export * from './membership';
export { ordinalsToRecord } from './names';
export * from './outcome';
export * from './plan';
export * from './revision';
export * from './runtime';
export * from './set-conditions';
export * from './snapshot';
export * from './startup-failures';
export * from './status';
export * from './status-read';
export * from './upstream-conditions';
export * from './wire-guards';
export * from './pinning';
export * from './revision-history';
