export * from './provisioner';
export * from './registry';
export * from './qemu';
