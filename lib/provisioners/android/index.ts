export * from './constants';
export * from './parameters';
export * from './validate';
export * from './exporter-config';
export * from './pod';
export * from './provisioner';
