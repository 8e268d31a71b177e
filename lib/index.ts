// The framework-neutral library: API types, CRDs, core rules, provisioners and manifest builders.
// Front ends are subpaths so users load only theirs: `virtual-exporters/cdk8s`, `virtual-exporters/pulumi`.
export * from './api';
export * from './crds';
export * from './core';
export * from './provisioners';
export * from './manifests';
