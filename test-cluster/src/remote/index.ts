// The simulators as clients of any API server (over HTTP(S) with client-node).
export * from './remote-lease-client';
export * from './remote-port';
export * from './remote-simulators';
export * from './wait-for';
