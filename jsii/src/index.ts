// virtual-exporters for Python (and every jsii language): the cdk8s constructs of the TypeScript
// library behind jsii-safe props. Each construct builds the library's construct as its child
// `Default`, so the manifests are the TypeScript ones, names and hashes included.
export * from './enums';
export * from './structs';
export * from './virtual-target-class';
export * from './exporter-set';
export * from './qemu-pool';
export * from './exporter-set-controller';
export * from './exporter-operation';
