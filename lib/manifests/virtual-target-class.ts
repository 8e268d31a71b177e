import {
  API_VERSION,
  Defaults,
  Kinds,
  type BindingMode,
  type ConfigMapKeyReference,
  type Images,
  type JsonObject,
  type ReclaimPolicy,
  type Scheduling,
  type VirtualTargetClass,
} from '../api';
import { compact, nonEmpty } from './compact';

/** Framework-neutral description of a VirtualTargetClass; the front ends map their props onto it. */
export interface VirtualTargetClassInput {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly provisioner: string;
  readonly parameters?: JsonObject;
  readonly credentialsSecretName?: string;
  readonly bindingMode?: BindingMode;
  readonly reclaimPolicy?: ReclaimPolicy;
  readonly scheduling?: Scheduling;
  readonly caBundle?: ConfigMapKeyReference;
  readonly images?: Images;
}

/** Builds the wire object, with the CRD defaults written out so the manifest says what it means. */
export function buildVirtualTargetClass(input: VirtualTargetClassInput): VirtualTargetClass {
  return compact({
    apiVersion: API_VERSION,
    kind: Kinds.VirtualTargetClass,
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: nonEmpty(input.labels),
      annotations: nonEmpty(input.annotations),
    },
    spec: {
      provisioner: input.provisioner,
      bindingMode: input.bindingMode ?? Defaults.bindingMode,
      reclaimPolicy: input.reclaimPolicy ?? Defaults.reclaimPolicy,
      parameters: input.parameters,
      credentialsSecretRef:
        input.credentialsSecretName !== undefined ? { name: input.credentialsSecretName } : undefined,
      scheduling: input.scheduling,
      caBundleConfigMapRef: input.caBundle,
      images: input.images,
    },
  });
}
