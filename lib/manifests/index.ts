export * from './compact';
export * from './virtual-target-class';
export * from './exporter-set';
export * from './qemu-pool';
export * from './rbac';
export * from './installer';
export * from './validate-installer';
