import { Labels, type Exporter, type ExporterSet, type VirtualTargetClass } from '../../api';
import { configSecretName } from './config-secret';
import {
  CONFIG_KEY,
  CONFIG_MOUNT_PATH,
  CONFIG_VOLUME_NAME,
  QemuContainerNames,
  EXPORTER_UID,
  QemuEnvNames,
  JUMPSTARTER_EXEC_SOURCE,
  JUMPSTARTER_EXEC_TARGET,
  LAUNCHER_SOCKET_PATH,
  RUNTIME_UID,
  SHARED_MOUNT_PATH,
  SHARED_VOLUME_NAME,
} from './constants';
import { resolveImages } from './images';
import type {
  RenderedContainer,
  RenderedPod,
  RenderedPodSpec,
  RenderedSecurityContext,
  RenderedVolumeMount,
} from './kube';
import { kvmParameter, runtimeResources } from './kvm';
import { exporterOwnerReference } from './owner';
import { sharedVolumeSizeLimit } from './shared-volume';

/** What the Pod is built from: one instance of a set (an InstanceInput without the credentials). */
export interface QemuPodInput {
  readonly exporterSet: ExporterSet;
  readonly virtualTargetClass: VirtualTargetClass;
  /** Merged parameters; `resources.storage` sizes the shared volume. */
  readonly parameters: unknown;
  readonly exporter: Exporter;
}

/** Non-root, no privilege escalation, no capabilities: the restricted Pod Security profile. */
const RESTRICTED: RenderedSecurityContext = {
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

const sharedMount = (): RenderedVolumeMount => ({ name: SHARED_VOLUME_NAME, mountPath: SHARED_MOUNT_PATH });

/**
 * The Pod of one QEMU instance:
 * - init `copy-jumpstarter-exec` (exporter image) stages the launcher binary on the shared volume;
 * - init `target-runtime` is a native sidecar (`restartPolicy: Always`) running the QEMU runtime as
 *   root (for /dev/kvm), serving the launcher socket, with the class's `scheduling.resources` and the
 *   KVM device as the `kvm` parameter asks (kvm.ts);
 * - container `exporter` runs `jmp run` restricted as uid 65532, reads its config from the Secret and
 *   alone gets the class credentials (`envFrom`), so the guest-facing runtime never sees them;
 * - `restartPolicy: Never`: when the exporter exits at lease end the Pod completes and is replaced.
 * The copy init container is restricted too: it only copies a file onto a world-writable emptyDir.
 * The Pod's seccomp profile is RuntimeDefault for all three, and template annotations that set
 * AppArmor or seccomp profiles are not copied: the Pod meets the Pod Security "baseline" profile,
 * and every container but the runtime meets "restricted" (docs/security.md).
 */
export function buildQemuPod(input: QemuPodInput): RenderedPod {
  const { exporterSet, virtualTargetClass, exporter } = input;
  const name = exporter.metadata?.name ?? '';
  const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace;
  const template = exporterSet.spec?.template?.metadata;
  const images = resolveImages(virtualTargetClass.spec?.images, exporterSet.spec?.images);
  const scheduling = virtualTargetClass.spec?.scheduling;
  const credentials = virtualTargetClass.spec?.credentialsSecretRef?.name;
  const revision = exporter.metadata?.labels?.[Labels.templateRevision];
  const owner = exporterOwnerReference(exporter);

  const copyExec: RenderedContainer = {
    name: QemuContainerNames.copyExec,
    ...images.exporter,
    command: ['cp', JUMPSTARTER_EXEC_SOURCE, JUMPSTARTER_EXEC_TARGET],
    securityContext: clone(RESTRICTED),
    volumeMounts: [sharedMount()],
  };

  const runtime: RenderedContainer = {
    name: QemuContainerNames.runtime,
    ...images.runtime,
    restartPolicy: 'Always',
    env: [
      {
        name: QemuEnvNames.execLogFields,
        value: `component=exporter,exporter=${name},namespace=${namespace ?? ''}`,
      },
    ],
    ...withResources(runtimeResources(scheduling?.resources, kvmParameter(input.parameters))),
    securityContext: { runAsUser: RUNTIME_UID, runAsNonRoot: false },
    volumeMounts: [sharedMount()],
  };

  const exporterContainer: RenderedContainer = {
    name: QemuContainerNames.exporter,
    ...images.exporter,
    command: ['jmp', 'run', '--exporter-config', `${CONFIG_MOUNT_PATH}/${CONFIG_KEY}`],
    env: [{ name: QemuEnvNames.launcherSocket, value: LAUNCHER_SOCKET_PATH }],
    ...(credentials ? { envFrom: [{ secretRef: { name: credentials } }] } : {}),
    securityContext: clone(RESTRICTED),
    volumeMounts: [sharedMount(), { name: CONFIG_VOLUME_NAME, mountPath: CONFIG_MOUNT_PATH, readOnly: true }],
  };

  const spec: RenderedPodSpec = {
    restartPolicy: 'Never',
    securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
    initContainers: [copyExec, runtime],
    containers: [exporterContainer],
    volumes: [
      { name: SHARED_VOLUME_NAME, emptyDir: { sizeLimit: sharedVolumeSizeLimit(input.parameters) } },
      { name: CONFIG_VOLUME_NAME, secret: { secretName: configSecretName(name) } },
    ],
    ...(scheduling?.nodeSelector ? { nodeSelector: { ...scheduling.nodeSelector } } : {}),
    ...(scheduling?.tolerations ? { tolerations: scheduling.tolerations.map((t) => ({ ...t })) } : {}),
    ...(scheduling?.affinity ? { affinity: clone(scheduling.affinity) } : {}),
    ...(scheduling?.priorityClassName ? { priorityClassName: scheduling.priorityClassName } : {}),
    ...(scheduling?.runtimeClassName ? { runtimeClassName: scheduling.runtimeClassName } : {}),
  };

  const annotations = Object.fromEntries(
    Object.entries(template?.annotations ?? {}).filter(([key]) => !isConfinementAnnotation(key)),
  );
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      labels: {
        ...(template?.labels ?? {}),
        [Labels.exporterSetName]: exporterSet.metadata?.name ?? '',
        ...(revision ? { [Labels.templateRevision]: revision } : {}),
      },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    spec,
  };
}

const withResources = (resources: RenderedContainer['resources']) => (resources ? { resources } : {});

/** Rendered objects share nothing with their inputs, so a caller may mutate either freely. */
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
