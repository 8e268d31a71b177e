import { buildInstancePod, exporterContainer, type InstancePodInput } from '../common/exporter-pod';
import { resolveImages } from '../qemu/images';
import type { RenderedEnvVar, RenderedPod } from '../qemu/kube';
import { isPlainObject } from '../../core/plain-object';
import { CORELLIUM_TOKEN_KEY, CorelliumEnvNames } from './constants';

/**
 * The Pod of one Corellium instance: the `exporter` container alone — no runtime sidecar, no launcher
 * init, no shared volume — because the Corellium driver creates and destroys the cloud device through
 * the Corellium API when the target is powered on and off. The exporter runs `jmp run` restricted as
 * uid 65532 on its mounted config Secret, with:
 * - `CORELLIUM_API_HOST` from the `api.host` parameter;
 * - `CORELLIUM_API_TOKEN` from key `token` of the class's credentials Secret (`credentialsSecretRef`),
 *   by reference: the token is never written into the Pod, the config Secret or anything the
 *   controller logs, and no other container exists to receive it.
 * Metadata, scheduling and confinement as for every instance Pod (common/exporter-pod.ts); the Pod
 * meets the Pod Security "restricted" profile. The class's runtime image is not used.
 */
export function buildCorelliumPod(input: InstancePodInput): RenderedPod {
  const { exporterSet, virtualTargetClass } = input;
  const images = resolveImages(virtualTargetClass.spec?.images, exporterSet.spec?.images);
  const credentials = virtualTargetClass.spec?.credentialsSecretRef?.name;
  const api =
    isPlainObject(input.parameters) && isPlainObject(input.parameters.api) ? input.parameters.api : {};
  const env: RenderedEnvVar[] = [];
  if (typeof api.host === 'string') env.push({ name: CorelliumEnvNames.apiHost, value: api.host });
  if (credentials) {
    env.push({
      name: CorelliumEnvNames.apiToken,
      valueFrom: { secretKeyRef: { name: credentials, key: CORELLIUM_TOKEN_KEY } },
    });
  }
  return buildInstancePod(input, {
    initContainers: [],
    containers: [exporterContainer({ image: images.exporter, env })],
    volumes: [],
  });
}
