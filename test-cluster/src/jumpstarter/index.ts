// The Jumpstarter controller simulator of the test cluster (INTEROP §1–2) and its parts.
export * from './conditions';
export * from './credentials';
export * from './exporter-processes';
export * from './exporter-status';
export * from './lease-assignment';
export * from './lease-client';
export * from './lease-end';
export * from './simulator';
export * from './simulator-core';
export * from './work-queue';
