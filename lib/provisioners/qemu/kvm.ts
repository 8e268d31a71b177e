/**
 * The `kvm` parameter, rendered as the KVM device the runtime sidecar requests. QEMU runs
 * in the runtime container and opens `/dev/kvm` there; a device plugin (KubeVirt's, or any that
 * advertises the resource) adds the device to the container that requests it and the scheduler places
 * the Pod only on nodes that have one — no host path, no privileged container (docs/security.md).
 *
 * - `kvm: true`: the runtime requests one KVM device (the class's own limit for it, if any, is kept);
 * - `kvm: false`: the runtime requests none, even if the class's resources do: the guest runs under
 *   TCG (software emulation), on any node, without KVM;
 * - absent or `null`: the class's `scheduling.resources` decide, as written.
 */
import type { ResourceRequirements } from '../../api';
import { isPlainObject } from '../../core/plain-object';

/** The extended resource KubeVirt's device plugin advertises for `/dev/kvm`. */
export const KVM_DEVICE_RESOURCE = 'devices.kubevirt.io/kvm';

/** `true`, `false`, or undefined when the merged parameters leave KVM to the class. */
export function kvmParameter(parameters: unknown): boolean | undefined {
  if (!isPlainObject(parameters)) return undefined;
  const kvm = parameters.kvm;
  return typeof kvm === 'boolean' ? kvm : undefined;
}

type Quantities = Record<string, string | number>;

/** The object without its undefined and empty-map members; undefined when nothing is left. */
function compact<T extends object>(value: T): T | undefined {
  const kept = Object.entries(value).filter(
    ([, v]) => v !== undefined && !(isPlainObject(v) && Object.keys(v).length === 0),
  );
  return kept.length > 0 ? (Object.fromEntries(kept) as T) : undefined;
}

/**
 * The runtime container's resources: the class's, with the KVM device added (`kvm: true`) or removed
 * (`kvm: false`); undefined when there are none. Never shares objects with `classResources`.
 */
export function runtimeResources(
  classResources: ResourceRequirements | undefined,
  kvm: boolean | undefined,
): ResourceRequirements | undefined {
  const resources = JSON.parse(JSON.stringify(classResources ?? {})) as {
    limits?: Quantities;
    requests?: Quantities;
  };
  if (kvm === true) {
    resources.limits = { ...resources.limits };
    resources.limits[KVM_DEVICE_RESOURCE] ??= '1';
  } else if (kvm === false) {
    delete resources.limits?.[KVM_DEVICE_RESOURCE];
    delete resources.requests?.[KVM_DEVICE_RESOURCE];
  }
  return compact(resources as ResourceRequirements);
}
