export * from './provisioner';
export * from './registry';
export * from './qemu';
export * from './qemu-ssh';
export * from './common';
export * from './corellium';
export * from './android';
