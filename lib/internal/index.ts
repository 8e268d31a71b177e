// Everything the library holds, for the companion controller and the project's own tests and tools.
// Not a public API: names here may change in any release. Users import `virtual-exporters`,
// `virtual-exporters/cdk8s` or `virtual-exporters/pulumi`.
export * from '../api';
export * from '../crds';
export * from '../core';
export * from '../provisioners';
export * from '../manifests';
