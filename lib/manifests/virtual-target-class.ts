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
  /** The provisioner that handles this class, for example `qemu.jumpstarter.dev`. */
  readonly provisioner: string;
  /**
   * Provisioner-specific settings as a nested object; the provisioner validates them after the set
   * overrides are merged in. Each set's `parameters` are deep-merged over them. @default none
   */
  readonly parameters?: JsonObject;
  /**
   * A Secret, in the same namespace, with credentials for API-backed provisioners; only the exporter
   * sees it. Given by name (the class writes it as `credentialsSecretRef`). @default none
   */
  readonly credentialsSecretName?: string;
  /**
   * When instances get their backend: `Immediate` keeps a warm pool; `WaitForFirstConsumer` provisions
   * when a lease waits. A Pod then starts only for a waiting lease. @default "Immediate"
   */
  readonly bindingMode?: BindingMode;
  /**
   * What happens to a virtual target after its lease: `Delete` destroys it; `Retain` keeps it for
   * debugging. @default "Delete"
   */
  readonly reclaimPolicy?: ReclaimPolicy;
  /** Where and with what the rendered instance Pods run. @default none */
  readonly scheduling?: Scheduling;
  /**
   * A ConfigMap, in the same namespace, holding the CA bundle instances use to trust private TLS
   * endpoints. @default Jumpstarter's service CA
   */
  readonly caBundle?: ConfigMapKeyReference;
  /**
   * Container images for the instances; an ExporterSet may replace them. @default the provisioner's
   * images
   */
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
