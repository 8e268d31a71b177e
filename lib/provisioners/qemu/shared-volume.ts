import { isPlainObject } from '../../core/plain-object';
import { bytesToQuantity, quantityValue } from './sizes';
import { MIN_SIZE_BYTES } from './validate';

/**
 * Guest disk budget when `resources.storage` is not given: enough to flash a typical test image
 * (upstream's fixed 100Mi cannot hold one).
 */
export const DEFAULT_STORAGE = '10Gi';

/**
 * Room on top of the guest disk for what else lives on the volume: the launcher binary, sockets,
 * the UEFI variable store, cloud-init data and image-format metadata (upstream's whole 100Mi budget).
 * Without it the kubelet would evict the Pod exactly when the guest disk is full.
 */
export const SHARED_VOLUME_HEADROOM = '100Mi';

/**
 * `sizeLimit` of the `shared` emptyDir: `resources.storage` (or {@link DEFAULT_STORAGE}) plus
 * {@link SHARED_VOLUME_HEADROOM}, in the largest exact binary unit (`16Gi` → `16484Mi`).
 */
export function sharedVolumeSizeLimit(parameters: unknown): string {
  const resources =
    isPlainObject(parameters) && isPlainObject(parameters.resources) ? parameters.resources : {};
  const storage = quantityValue(resources.storage);
  const guest =
    storage !== undefined && storage >= MIN_SIZE_BYTES ? storage : quantityValue(DEFAULT_STORAGE)!;
  return bytesToQuantity(guest + quantityValue(SHARED_VOLUME_HEADROOM)!);
}
