// The closed sets of strings of the TypeScript API, as enums: jsii turns a string-literal union into a
// bare string, so Python would lose the choices (cdk8s-plus does the same with its own enums). Each
// value is the text written on the wire; a jest test checks every set against the library's unions.

/** When a class starts instances (`VirtualTargetClass.bindingMode`). */
export enum BindingMode {
  /** Keep warm Pods: instances are started ahead of demand. */
  IMMEDIATE = 'Immediate',
  /** Start an instance only for a waiting lease. */
  WAIT_FOR_FIRST_CONSUMER = 'WaitForFirstConsumer',
}

/** What happens to an instance after its lease (`VirtualTargetClass.reclaimPolicy`). */
export enum ReclaimPolicy {
  /** The instance is destroyed. */
  DELETE = 'Delete',
  /** The instance is kept for debugging. */
  RETAIN = 'Retain',
}

/** How an instance is recycled after its lease (`ExporterSet.recycleStrategy`). */
export enum RecycleStrategy {
  /** The exporter exits at lease end and the set replaces the instance. */
  EXIT_AND_REPLACE = 'ExitAndReplace',
  /** The exporter keeps running and serves the next lease. */
  IN_PLACE_REUSE = 'InPlaceReuse',
}

/** How outdated instances are replaced (`UpdateStrategy.type`). */
export enum UpdateStrategyType {
  /** Idle outdated instances are replaced gradually. */
  PROACTIVE = 'Proactive',
  /** Outdated instances are replaced only when they recycle or fail. */
  OPPORTUNISTIC = 'Opportunistic',
  /** Instances are never replaced for being outdated. */
  UNMANAGED = 'Unmanaged',
}

/** The order in which idle instances leave when the pool shrinks (`ScaleInStrategy.basePolicy`). */
export enum ScaleInBasePolicy {
  /** The oldest instances leave first. */
  OLDEST = 'Oldest',
  /** The newest instances leave first. */
  NEWEST = 'Newest',
  /** A random order, seeded from the set's uid so every controller replica computes the same. */
  RANDOM = 'Random',
}

/** What the demand forecast does (`ForecastSpec.mode`). */
export enum ForecastMode {
  /** No forecast. */
  OFF = 'Off',
  /** The forecast and the warm buffer it would set are shown in status and metrics; nothing changes. */
  FORECAST_ONLY = 'ForecastOnly',
  /** The warm buffer is raised to the forecast ahead of demand (never lowered by it). */
  APPLY = 'Apply',
}

/** When the kubelet pulls an image. */
export enum ImagePullPolicy {
  /** Pull on every start. */
  ALWAYS = 'Always',
  /** Never pull: the image must be on the node. */
  NEVER = 'Never',
  /** Pull only when the image is not on the node. */
  IF_NOT_PRESENT = 'IfNotPresent',
}

/** Guest architectures the QEMU runtime image emulates (`QemuPool.arch`). */
export enum QemuArch {
  /** 64-bit x86. */
  X86_64 = 'x86_64',
  /** 64-bit Arm. */
  AARCH64 = 'aarch64',
}

/** How a label selector requirement compares a label with its values. */
export enum LabelSelectorOperator {
  /** The label's value is one of the values. */
  IN = 'In',
  /** The label's value is none of the values (or the label is absent). */
  NOT_IN = 'NotIn',
  /** The label is present. */
  EXISTS = 'Exists',
  /** The label is absent. */
  DOES_NOT_EXIST = 'DoesNotExist',
}

/** How a toleration matches a taint. */
export enum TolerationOperator {
  /** The taint's value must equal the toleration's. */
  EQUAL = 'Equal',
  /** Any value of the taint's key matches. */
  EXISTS = 'Exists',
}

/** The effect of a taint a toleration tolerates. */
export enum TaintEffect {
  /** New Pods are not scheduled on the node. */
  NO_SCHEDULE = 'NoSchedule',
  /** The scheduler avoids the node. */
  PREFER_NO_SCHEDULE = 'PreferNoSchedule',
  /** Running Pods are evicted. */
  NO_EXECUTE = 'NoExecute',
}

/** The controller's log level (`ExporterSetController.logLevel`). */
export enum LogLevel {
  /** Everything, including each reconcile pass. */
  DEBUG = 'debug',
  /** Changes the controller makes. */
  INFO = 'info',
  /** Problems it works around. */
  WARN = 'warn',
  /** Failures only. */
  ERROR = 'error',
}
