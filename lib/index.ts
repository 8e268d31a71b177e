// The framework-neutral public API (`virtual-exporters`): what the README's "Core" section documents —
// the wire types of our two kinds, the names used on the wire, the CRDs and the checks users call.
// Front ends are subpaths so users load only theirs: `virtual-exporters/cdk8s`, `virtual-exporters/pulumi`.
// Everything else stays internal (`virtual-exporters/internal`, for the companion controller only).

// Wire types of VirtualTargetClass and ExporterSet, and the Kubernetes types they are made of.
export type {
  BindingMode,
  ConfigMapKeyReference,
  ReclaimPolicy,
  ResourceRequirements,
  Scheduling,
  Toleration,
  VirtualTargetClass,
  VirtualTargetClassSpec,
} from './api/virtual-target-class';
export type {
  DriverConfig,
  ExporterSet,
  ExporterSetSpec,
  ExporterSetStatus,
  ExporterTemplate,
  LeaseWaitStatus,
  RecycleStrategy,
  ScheduleWindowStatus,
  SchedulesStatus,
  WarmBufferSchedule,
} from './api/exporter-set';
export type { ImagePullPolicy, ImageSpec, Images } from './api/images';
export type {
  ExporterOperation,
  ExporterOperationSpec,
  ExporterOperationStatus,
  OperationInstanceResult,
  OperationName,
  OperationState,
} from './api/exporter-operation';
export type {
  Condition,
  ConditionStatus,
  JsonObject,
  JsonValue,
  LabelSelector,
  LabelSelectorOperator,
  LabelSelectorRequirement,
  LocalObjectReference,
  ObjectMeta,
} from './api/meta';

// Names on the wire, defaults and the admission rules' messages.
export {
  API_VERSION,
  Annotations,
  ConditionReasons,
  ConditionTypes,
  DefaultImages,
  Defaults,
  GROUP,
  Kinds,
  Labels,
  ProvisionerNames,
  VERSION,
  type ConditionType,
} from './api/constants';
export { RuleMessages } from './api/rules';
export { OperationRuleMessages } from './api/exporter-operation';

// The CRDs, as plain `apiextensions.k8s.io/v1` objects.
export {
  exporterOperationCrd,
  exporterSetCrd,
  ourCrds,
  virtualTargetClassCrd,
  type CustomResourceDefinition,
} from './crds';

// The checks the constructs and components run, for objects written by hand or read from a cluster.
export { formatIssue, type ValidationIssue } from './core/issue';
export { mergeParameters } from './core/merge';
export { validateExporterSet } from './core/validate-exporter-set';
export { validateVirtualTargetClass } from './core/validate-virtual-target-class';
export { validateExporterOperation } from './core/validate-exporter-operation';
export {
  QEMU_ARCHES,
  type QemuArch,
  type QemuFirmware,
  type QemuParameters,
  type QemuResources,
} from './provisioners/qemu/parameters';
export { validateQemuParameters } from './provisioners/qemu/validate';
