/**
 * The few core/v1 shapes the QEMU provisioner renders, typed just enough to build and test them.
 * Rendered objects are plain JSON; fields not listed here are never written.
 */
import type {
  ImagePullPolicy,
  JsonObject,
  OwnerReference,
  ResourceRequirements,
  Toleration,
} from '../../api';

export interface RenderedObjectMeta {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  /** Left out only when the owner has no uid yet (render refuses that case). */
  ownerReferences?: OwnerReference[];
}

/** A literal value, or one key of a Secret (the only source the provisioners use). */
export type RenderedEnvVar =
  | { name: string; value: string }
  | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

export interface RenderedVolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}

export interface RenderedSecurityContext {
  runAsUser?: number;
  runAsNonRoot?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
}

/** The Pod-level security context: the seccomp profile every container inherits. */
export interface RenderedPodSecurityContext {
  seccompProfile: { type: 'RuntimeDefault' };
}

export interface RenderedContainer {
  name: string;
  image: string;
  imagePullPolicy: ImagePullPolicy;
  command?: string[];
  /** `Always` on an init container makes it a native sidecar. */
  restartPolicy?: 'Always';
  env?: RenderedEnvVar[];
  envFrom?: { secretRef: { name: string } }[];
  resources?: ResourceRequirements;
  securityContext?: RenderedSecurityContext;
  volumeMounts: RenderedVolumeMount[];
}

export type RenderedVolume =
  { name: string; emptyDir: { sizeLimit?: string } } | { name: string; secret: { secretName: string } };

export interface RenderedPodSpec {
  restartPolicy: 'Never';
  securityContext: RenderedPodSecurityContext;
  initContainers: RenderedContainer[];
  containers: RenderedContainer[];
  volumes: RenderedVolume[];
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  affinity?: JsonObject;
  priorityClassName?: string;
  runtimeClassName?: string;
}

export interface RenderedPod {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: RenderedObjectMeta;
  spec: RenderedPodSpec;
}

export interface RenderedSecret {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: RenderedObjectMeta;
  type: 'Opaque';
  /** Base64 values, as the API server stores and returns them. */
  data: Record<string, string>;
}
