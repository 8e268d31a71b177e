// The cdk8s front end (`virtual-exporters/cdk8s`): the constructs and their props. Loads cdk8s and
// constructs, never Pulumi.
export {
  VirtualTargetClass,
  type IVirtualTargetClass,
  type VirtualTargetClassProps,
} from './virtual-target-class';
export {
  ExporterSet,
  type ExporterSetProps,
  type ExporterSetScheduleProps,
  type ExporterTemplateProps,
} from './exporter-set';
export { QemuPool, type QemuArch, type QemuPoolProps } from './qemu-pool';
export { ExporterSetController, type ExporterSetControllerProps } from './exporter-set-controller';
export { ExporterOperation, type ExporterOperationProps } from './exporter-operation';
