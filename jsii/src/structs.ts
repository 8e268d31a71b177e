// Plain structs of the props: the shapes of the TypeScript API with enums for choices, mutable arrays
// and string maps (jsii's data types). Names and fields match the library's, so a prop documented in
// the README reads the same in Python (snake_case there).
import type { Cron, Duration } from 'cdk8s';
import type {
  ForecastMode,
  ImagePullPolicy,
  LabelSelectorOperator,
  ScaleInBasePolicy,
  TaintEffect,
  TolerationOperator,
  UpdateStrategyType,
} from './enums';

/** Lets rendered Pods run on nodes with a matching taint (core/v1 Toleration). */
export interface Toleration {
  /** The taint key. @default every key (with operator Exists) */
  readonly key?: string;
  /** @default TolerationOperator.EQUAL */
  readonly operator?: TolerationOperator;
  /** The taint value, with operator Equal. @default none */
  readonly value?: string;
  /** The taint effect tolerated. @default every effect */
  readonly effect?: TaintEffect;
  /** With NoExecute: how long the Pod stays after the taint appears. @default forever */
  readonly tolerationSeconds?: number;
}

/** One dynamic resource claim a container uses (core/v1 ResourceClaim). */
export interface ResourceClaim {
  /** The name of the Pod's resource claim. */
  readonly name: string;
  /** The request of the claim to use. @default the whole claim */
  readonly request?: string;
}

/** Requests and limits of the runtime container (core/v1 ResourceRequirements); quantities as text. */
export interface ResourceRequirements {
  /** Upper bounds, e.g. `{"memory": "8Gi", "devices.kubevirt.io/kvm": "1"}`. @default none */
  readonly limits?: { [resource: string]: string };
  /** What the scheduler reserves, e.g. `{"cpu": "2"}`. @default none */
  readonly requests?: { [resource: string]: string };
  /** Dynamic resource claims. @default none */
  readonly claims?: ResourceClaim[];
}

/** Placement and resources of the Pods a class renders. */
export interface Scheduling {
  /** Node labels the Pods require. @default none */
  readonly nodeSelector?: { [label: string]: string };
  /** Taints the Pods tolerate. @default none */
  readonly tolerations?: Toleration[];
  /** Resources of the runtime container (KVM devices, memory). @default none */
  readonly resources?: ResourceRequirements;
  /** A core/v1 Affinity, given to the Pods as is. @default none */
  readonly affinity?: { [key: string]: any };
  /** The Pods' priority class. @default none */
  readonly priorityClassName?: string;
  /** The Pods' runtime class (e.g. kata). @default none */
  readonly runtimeClassName?: string;
}

/** A key of a ConfigMap in the class's namespace. */
export interface ConfigMapKeyReference {
  /** The ConfigMap's name. */
  readonly name: string;
  /** @default "ca-bundle.crt" */
  readonly key?: string;
}

/** One container image and its pull policy. */
export interface ImageSpec {
  /** Image reference, e.g. `quay.io/org/repo:tag`. @default the provisioner's image */
  readonly image?: string;
  /** @default the provisioner's (IfNotPresent) */
  readonly imagePullPolicy?: ImagePullPolicy;
}

/** Image overrides on a class or a set; a set's entries replace its class's. */
export interface Images {
  /** The exporter container (`jmp run`). @default the provisioner's */
  readonly exporter?: ImageSpec;
  /** The target runtime (the QEMU sidecar). @default the provisioner's */
  readonly runtime?: ImageSpec;
}

/** One requirement of a label selector. */
export interface LabelSelectorRequirement {
  /** The label key. */
  readonly key: string;
  /** How the label is compared with `values`. */
  readonly operator: LabelSelectorOperator;
  /** Values for In and NotIn. @default none */
  readonly values?: string[];
}

/** A Kubernetes label selector: every entry of `matchLabels` and every expression must match. */
export interface LabelSelector {
  /** Labels that must have exactly these values. @default none */
  readonly matchLabels?: { [key: string]: string };
  /** Requirements that must all hold. @default none */
  readonly matchExpressions?: LabelSelectorRequirement[];
}

/** One driver of an exporter: exactly one of `type` and `ref`. */
export interface DriverConfig {
  /** The name in the exporter's `export` map. @default derived from the driver package (`jumpstarter_driver_qemu` → `qemu`) */
  readonly name?: string;
  /** The driver class, e.g. `jumpstarter_driver_qemu.driver.Qemu`. @default none (a `ref`) */
  readonly type?: string;
  /** Another driver of the exporter this entry stands for. @default none */
  readonly ref?: string;
  /** The driver's arguments, as Jumpstarter's exporter config takes them. @default none */
  readonly config?: { [key: string]: any };
}

/** The order in which idle instances are scaled in. */
export interface ScaleInStrategy {
  /** Instances matching an earlier selector go before those matching a later one or none. @default none */
  readonly selectors?: LabelSelector[];
  /** Orders the rest and breaks ties. @default ScaleInBasePolicy.NEWEST */
  readonly basePolicy?: ScaleInBasePolicy;
}

/** How outdated instances are replaced. */
export interface UpdateStrategy {
  /** @default UpdateStrategyType.PROACTIVE */
  readonly type?: UpdateStrategyType;
  /**
   * Proactive only: replacements started before the outdated instances they replace leave.
   * @default the controller's --rollout-surge-percent (25%), at least 1
   */
  readonly maxSurge?: IntOrPercent;
  /** Proactive only: outdated instances the warm buffer needs that may leave before their replacement is ready. @default 1 */
  readonly maxUnavailable?: IntOrPercent;
}

/** Forecast warm buffers from the set's demand history (seasonal by hour of week). */
export interface ForecastSpec {
  /** @default ForecastMode.OFF */
  readonly mode?: ForecastMode;
  /** The forecast raises minAvailableReplicas by at most this much. @default no limit but maxReplicas */
  readonly maxExtra?: number;
}

/** A recurring window during which the warm buffer (and optionally the floor) is raised. */
export interface WarmBufferSchedule {
  /** Unique among the set's schedules; named in status and events. */
  readonly name: string;
  /** When each window opens, e.g. `Cron.schedule({minute: "0", hour: "8", weekDay: "1-5"})`. */
  readonly cron: Cron;
  /** How long each window lasts; at most the shortest gap between occurrences. */
  readonly duration: Duration;
  /** The IANA time zone the cron is read in. @default "UTC" */
  readonly timeZone?: string;
  /** The warm buffer while the window is open. */
  readonly minAvailableReplicas: number;
  /** The floor while the window is open. @default the set's minReplicas */
  readonly minReplicas?: number;
  /** How long before the window opens the raise starts. @default the pool's measured p95 startup time, else 2 minutes */
  readonly leadTime?: Duration;
}

/** Firmware a QEMU guest boots. */
export interface QemuFirmware {
  /** Where the image comes from, e.g. an OCI reference. @default none */
  readonly url?: string;
  /** `<algorithm>:<digest>`, e.g. `sha256:` and 64 hex digits. @default none */
  readonly digest?: string;
}

/** The installer's optional monitoring objects; each is off unless asked for. */
export interface OpsPack {
  /** A ServiceMonitor for the controllers' metrics (needs the Prometheus Operator). @default false */
  readonly serviceMonitor?: boolean;
  /** A PrometheusRule with the controller's alerts and runbooks (needs the Prometheus Operator). @default false */
  readonly prometheusRule?: boolean;
  /** The Grafana dashboard in a ConfigMap labelled `grafana_dashboard: "1"`. @default false */
  readonly grafanaDashboard?: boolean;
  /** The Perses dashboard in a ConfigMap. @default false */
  readonly persesDashboard?: boolean;
  /** Extra labels on the ServiceMonitor and PrometheusRule (e.g. the `release` your Prometheus selects). @default none */
  readonly labels?: { [key: string]: string };
  /** How often Prometheus scrapes the controllers, in whole seconds. @default 30 seconds */
  readonly scrapeInterval?: Duration;
}

/**
 * A count of instances, or a percentage of the pool (Kubernetes' int-or-string), for
 * `UpdateStrategy.maxSurge` and `maxUnavailable`.
 */
export class IntOrPercent {
  /** An absolute number of instances. */
  public static count(instances: number): IntOrPercent {
    return new IntOrPercent(instances);
  }

  /** A percentage of the pool, e.g. `IntOrPercent.percent(25)` for "25%". */
  public static percent(percent: number): IntOrPercent {
    return new IntOrPercent(`${percent}%`);
  }

  /** The value on the wire: a number, or a string such as "25%". */
  public readonly value: any;

  private constructor(value: number | string) {
    this.value = value;
  }
}
