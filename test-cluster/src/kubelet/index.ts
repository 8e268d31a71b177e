// The kubelet simulator of the test cluster: Pod phases, exporter processes, faults.
export * from './exporter-config';
export * from './faults';
export * from './pod-secrets';
export * from './pod-status';
export * from './simulator';
export * from './simulator-core';
