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
import { compact } from './compact';
import { wireMetadata, type ObjectMetaInput } from './object-meta-input';

/**
 * A VirtualTargetClass's settings besides its metadata, documented once: the cdk8s props and the
 * Pulumi args are these fields (as `pulumi.Input`s in Pulumi).
 */
export interface VirtualTargetClassOptions {
  /** The provisioner that makes the instances, e.g. `qemu.jumpstarter.dev`. */
  readonly provisioner: string;
  /** Provisioner settings, deep-merged under each set's `parameters`. @default none */
  readonly parameters?: JsonObject;
  /** Secret in the class's namespace holding backend credentials. @default none */
  readonly credentialsSecretName?: string;
  /** `Immediate` keeps warm Pods; `WaitForFirstConsumer` starts a Pod only for a waiting lease. @default "Immediate" */
  readonly bindingMode?: BindingMode;
  /** What happens to an instance after its lease: `Delete` destroys it, `Retain` keeps it for debugging. @default "Delete" */
  readonly reclaimPolicy?: ReclaimPolicy;
  /** Placement and resources of rendered Pods. @default none */
  readonly scheduling?: Scheduling;
  /** ConfigMap with the CA bundle for the exporter config. @default Jumpstarter's service CA */
  readonly caBundle?: ConfigMapKeyReference;
  /** Image overrides; a set's own `images` replace these. @default the provisioner's images */
  readonly images?: Images;
}

/** Framework-neutral description of a VirtualTargetClass: what the builder takes. */
export interface VirtualTargetClassInput extends ObjectMetaInput, VirtualTargetClassOptions {}

/** Builds the wire object, with the CRD defaults written out so the manifest says what it means. */
export function buildVirtualTargetClass(input: VirtualTargetClassInput): VirtualTargetClass {
  return compact({
    apiVersion: API_VERSION,
    kind: Kinds.VirtualTargetClass,
    metadata: wireMetadata(input),
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
