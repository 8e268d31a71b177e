// The simulators' narrow view of an API server (`ClusterPort`), its in-process adapter and the
// coroutines that run one copy of the simulators' logic on either adapter.
export * from './cluster-port';
export * from './coroutine';
export * from './store-port';
