import {
  buildInstancePod,
  clone,
  exporterContainer,
  RESTRICTED,
  type InstancePodInput,
} from '../common/exporter-pod';
import {
  QemuContainerNames,
  QemuEnvNames,
  JUMPSTARTER_EXEC_SOURCE,
  JUMPSTARTER_EXEC_TARGET,
  LAUNCHER_SOCKET_PATH,
  RUNTIME_UID,
  SHARED_MOUNT_PATH,
  SHARED_VOLUME_NAME,
} from './constants';
import { resolveImages } from './images';
import type { RenderedContainer, RenderedEnvVar, RenderedPod, RenderedVolumeMount } from './kube';
import { kvmParameter, runtimeResources } from './kvm';
import { sharedVolumeSizeLimit } from './shared-volume';

export { CONFINEMENT_ANNOTATION_PREFIXES } from '../common/exporter-pod';

/** What the Pod is built from: one instance of a set (an InstanceInput without the credentials). */
export type QemuPodInput = InstancePodInput;

export const sharedMount = (): RenderedVolumeMount => ({
  name: SHARED_VOLUME_NAME,
  mountPath: SHARED_MOUNT_PATH,
});

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
 * What every instance Pod shares is in common/exporter-pod.ts.
 */
export function buildQemuPod(input: QemuPodInput): RenderedPod {
  return buildRuntimePod(input, {});
}

/** What a provisioner with the QEMU Pod layout changes in it. */
export interface RuntimePodOptions {
  /** @default the QEMU runtime image */
  readonly defaultRuntimeImage?: string;
  /** Environment of the runtime sidecar, after its log fields. */
  readonly runtimeEnv?: readonly RenderedEnvVar[];
}

/**
 * The QEMU Pod layout (see {@link buildQemuPod}) with another runtime: the default runtime image and
 * extra runtime environment are the provisioner's; everything else is the same.
 */
export function buildRuntimePod(input: QemuPodInput, options: RuntimePodOptions): RenderedPod {
  const { exporterSet, virtualTargetClass, exporter } = input;
  const name = exporter.metadata?.name ?? '';
  const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace;
  const images = resolveImages(
    virtualTargetClass.spec?.images,
    exporterSet.spec?.images,
    options.defaultRuntimeImage,
  );
  const scheduling = virtualTargetClass.spec?.scheduling;

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
      ...clone([...(options.runtimeEnv ?? [])]),
    ],
    ...withResources(runtimeResources(scheduling?.resources, kvmParameter(input.parameters))),
    securityContext: { runAsUser: RUNTIME_UID, runAsNonRoot: false },
    volumeMounts: [sharedMount()],
  };

  const exporterMain = exporterContainer({
    image: images.exporter,
    env: [{ name: QemuEnvNames.launcherSocket, value: LAUNCHER_SOCKET_PATH }],
    envFromSecret: virtualTargetClass.spec?.credentialsSecretRef?.name,
    volumeMounts: [sharedMount()],
  });

  return buildInstancePod(input, {
    initContainers: [copyExec, runtime],
    containers: [exporterMain],
    volumes: [{ name: SHARED_VOLUME_NAME, emptyDir: { sizeLimit: sharedVolumeSizeLimit(input.parameters) } }],
  });
}

export const withResources = (resources: RenderedContainer['resources']) => (resources ? { resources } : {});
