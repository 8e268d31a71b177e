// The test cluster (SPEC §5): an in-process Kubernetes API server with simulators, for tests and the lab.
export * from './cluster';
export * from './counters';
export * from './faults';
export * from './kubeconfig';
export * from './server';
export * from './types';
export * from './clock';
export * from './registry';
export * from './builtin-resources';
export * from './store';
export * from './admission';
export * from './selectors';
export * from './patch';
export * from './jumpstarter';
export * from './kubelet';
