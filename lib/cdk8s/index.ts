export * from './virtual-target-class';
export * from './exporter-set';
export * from './qemu-pool';
export * from './exporter-set-controller';
export { toGoDuration, toQuantity } from './units';
