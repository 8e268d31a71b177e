/**
 * The parts every in-cluster instance Pod shares, whatever runs beside the exporter: the Pod's
 * metadata (template labels and annotations, the set label, the Exporter as controller owner), the
 * restricted `exporter` container running `jmp run` on the mounted config Secret, the config Secret
 * volume, the class's scheduling and the Pod-level seccomp profile. The QEMU and Android Pods add a
 * runtime sidecar and a shared volume to this; the Corellium Pod is this alone.
 */
import { Labels, type Exporter, type ExporterSet, type VirtualTargetClass } from '../../api';
import { configSecretName } from '../qemu/config-secret';
import {
  CONFIG_KEY,
  CONFIG_MOUNT_PATH,
  CONFIG_VOLUME_NAME,
  EXPORTER_UID,
  QemuContainerNames,
} from '../qemu/constants';
import type { ResolvedImage } from '../qemu/images';
import type {
  RenderedContainer,
  RenderedEnvVar,
  RenderedObjectMeta,
  RenderedPod,
  RenderedSecurityContext,
  RenderedVolume,
  RenderedVolumeMount,
} from '../qemu/kube';
import { exporterOwnerReference } from '../qemu/owner';

/** Non-root, no privilege escalation, no capabilities: the restricted Pod Security profile. */
export const RESTRICTED: RenderedSecurityContext = {
  runAsUser: EXPORTER_UID,
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
};

/**
 * Template annotations that would change how the Pod is confined (AppArmor, and the seccomp
 * annotations older kubelets still read). The provisioner decides the Pod's confinement; a set's
 * template must not loosen it (`unconfined`) for a runtime that runs as root.
 */
export const CONFINEMENT_ANNOTATION_PREFIXES = [
  'container.apparmor.security.beta.kubernetes.io/',
  'seccomp.security.alpha.kubernetes.io/',
  'container.seccomp.security.alpha.kubernetes.io/',
] as const;

const isConfinementAnnotation = (key: string) =>
  CONFINEMENT_ANNOTATION_PREFIXES.some((prefix) => key.startsWith(prefix));

/** What every instance Pod is built from: one instance of a set (an InstanceInput without the token). */
export interface InstancePodInput {
  readonly exporterSet: ExporterSet;
  readonly virtualTargetClass: VirtualTargetClass;
  /** Merged parameters. */
  readonly parameters: unknown;
  readonly exporter: Exporter;
}

export interface ExporterContainerOptions {
  readonly image: ResolvedImage;
  readonly env: readonly RenderedEnvVar[];
  /** The whole class credentials Secret as environment (`envFrom`), when given. */
  readonly envFromSecret?: string;
  /** Mounts before the config Secret's (e.g. the shared volume). */
  readonly volumeMounts?: readonly RenderedVolumeMount[];
}

/** Container `exporter`: `jmp run` on the mounted config, restricted as uid 65532. */
export function exporterContainer(options: ExporterContainerOptions): RenderedContainer {
  return {
    name: QemuContainerNames.exporter,
    ...options.image,
    command: ['jmp', 'run', '--exporter-config', `${CONFIG_MOUNT_PATH}/${CONFIG_KEY}`],
    env: clone([...options.env]),
    ...(options.envFromSecret ? { envFrom: [{ secretRef: { name: options.envFromSecret } }] } : {}),
    securityContext: clone(RESTRICTED),
    volumeMounts: [
      ...clone([...(options.volumeMounts ?? [])]),
      { name: CONFIG_VOLUME_NAME, mountPath: CONFIG_MOUNT_PATH, readOnly: true },
    ],
  };
}

/** The volume of the instance's exporter config Secret. */
export function configVolume(exporterName: string): RenderedVolume {
  return { name: CONFIG_VOLUME_NAME, secret: { secretName: configSecretName(exporterName) } };
}

export interface InstancePodParts {
  readonly initContainers: readonly RenderedContainer[];
  readonly containers: readonly RenderedContainer[];
  /** Volumes before the config Secret's. */
  readonly volumes: readonly RenderedVolume[];
}

/**
 * An instance Pod: named after the Exporter, `restartPolicy: Never` (an exporter exiting at lease end
 * completes it), RuntimeDefault seccomp for every container, the given containers and volumes plus
 * the config Secret volume, the class's scheduling, and metadata from the set's template without
 * confinement annotations, with the set label the template cannot override.
 */
export function buildInstancePod(input: InstancePodInput, parts: InstancePodParts): RenderedPod {
  const { exporter } = input;
  const name = exporter.metadata?.name ?? '';
  const scheduling = input.virtualTargetClass.spec?.scheduling;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: instanceMetadata(input),
    spec: {
      restartPolicy: 'Never',
      securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      initContainers: [...parts.initContainers],
      containers: [...parts.containers],
      volumes: [...parts.volumes, configVolume(name)],
      ...(scheduling?.nodeSelector ? { nodeSelector: { ...scheduling.nodeSelector } } : {}),
      ...(scheduling?.tolerations ? { tolerations: scheduling.tolerations.map((t) => ({ ...t })) } : {}),
      ...(scheduling?.affinity ? { affinity: clone(scheduling.affinity) } : {}),
      ...(scheduling?.priorityClassName ? { priorityClassName: scheduling.priorityClassName } : {}),
      ...(scheduling?.runtimeClassName ? { runtimeClassName: scheduling.runtimeClassName } : {}),
    },
  };
}

function instanceMetadata(input: InstancePodInput): RenderedObjectMeta {
  const { exporterSet, exporter } = input;
  const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace;
  const template = exporterSet.spec?.template?.metadata;
  const revision = exporter.metadata?.labels?.[Labels.templateRevision];
  const owner = exporterOwnerReference(exporter);
  const annotations = Object.fromEntries(
    Object.entries(template?.annotations ?? {}).filter(([key]) => !isConfinementAnnotation(key)),
  );
  return {
    name: exporter.metadata?.name ?? '',
    ...(namespace ? { namespace } : {}),
    labels: {
      ...(template?.labels ?? {}),
      [Labels.exporterSetName]: exporterSet.metadata?.name ?? '',
      ...(revision ? { [Labels.templateRevision]: revision } : {}),
    },
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(owner ? { ownerReferences: [owner] } : {}),
  };
}

/** Rendered objects share nothing with their inputs, so a caller may mutate either freely. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
