import type { Images } from './images';
import type { JsonObject, LocalObjectReference, ObjectMeta } from './meta';

export type BindingMode = 'Immediate' | 'WaitForFirstConsumer';
export type ReclaimPolicy = 'Delete' | 'Retain';

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

/** core/v1 ResourceRequirements; quantities may be strings or numbers. */
export interface ResourceRequirements {
  readonly limits?: Readonly<Record<string, string | number>>;
  readonly requests?: Readonly<Record<string, string | number>>;
  readonly claims?: readonly { readonly name: string; readonly request?: string }[];
}

/** Placement of rendered Pods. `affinity`, `priorityClassName`, `runtimeClassName` are our additions. */
export interface Scheduling {
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly tolerations?: readonly Toleration[];
  readonly resources?: ResourceRequirements;
  /** Node and Pod (anti-)affinity of the rendered Pods: a Kubernetes core/v1 Affinity. Passed as is. */
  readonly affinity?: JsonObject;
  readonly priorityClassName?: string;
  readonly runtimeClassName?: string;
}

export interface ConfigMapKeyReference {
  readonly name: string;
  /** @default "ca-bundle.crt" */
  readonly key?: string;
}

export interface VirtualTargetClassSpec {
  readonly provisioner: string;
  readonly parameters?: JsonObject;
  readonly credentialsSecretRef?: LocalObjectReference;
  readonly bindingMode?: BindingMode;
  readonly reclaimPolicy?: ReclaimPolicy;
  readonly scheduling?: Scheduling;
  readonly caBundleConfigMapRef?: ConfigMapKeyReference;
  readonly images?: Images;
}

export interface VirtualTargetClass {
  readonly apiVersion: string;
  readonly kind: 'VirtualTargetClass';
  readonly metadata: ObjectMeta;
  readonly spec: VirtualTargetClassSpec;
}
