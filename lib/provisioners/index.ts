export * from './provisioner';
export * from './registry';
export * from './qemu';
export * from './common';
export * from './corellium';
export * from './android';
