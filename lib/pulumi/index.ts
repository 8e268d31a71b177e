// The Pulumi front end (`virtual-exporters/pulumi`): ComponentResources over the same builders and
// checks as the cdk8s constructs, and their args. Loads @pulumi/pulumi and @pulumi/kubernetes, never cdk8s.
export type { ObjectMetadataArgs, StringMapInput } from './args';
export { VirtualTargetClass, type VirtualTargetClassArgs } from './virtual-target-class';
export { ExporterSet, type ExporterSetArgs, type ExporterTemplateArgs } from './exporter-set';
export { QemuPool, type QemuArch, type QemuPoolArgs } from './qemu-pool';
export { ExporterSetController, type ExporterSetControllerArgs } from './exporter-set-controller';
export { ExporterOperation, type ExporterOperationArgs } from './exporter-operation';
