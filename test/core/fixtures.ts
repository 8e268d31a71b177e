/**
 * JEP-0014's rpi4 QEMU pool (class `qemu-rpi4`, set `rpi4-virtual`) as wire objects, written for these
 * tests. Each call returns a fresh deep copy, so a test may change it freely.
 */
import type { ExporterSet, VirtualTargetClass } from '../../lib/api';

export function jepClass(): VirtualTargetClass {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'qemu-rpi4', namespace: 'jumpstarter' },
    spec: {
      provisioner: 'qemu.jumpstarter.dev',
      bindingMode: 'Immediate',
      reclaimPolicy: 'Delete',
      scheduling: {
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        tolerations: [{ key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' }],
        resources: { limits: { 'devices.kubevirt.io/kvm': '1' } },
      },
      parameters: {
        machineType: 'virt',
        firmware: { url: 'registry.example.com/firmware/rpi4:v1', digest: 'sha256:abc' },
        resources: { cpu: 4, memory: '4Gi', storage: '16Gi' },
      },
    },
  };
}

export function jepSet(): ExporterSet {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'rpi4-virtual', namespace: 'jumpstarter' },
    spec: {
      minReplicas: 0,
      maxReplicas: 20,
      minAvailableReplicas: 2,
      scaleDownCooldown: '5m',
      recycleStrategy: 'ExitAndReplace',
      virtualTargetClassName: 'qemu-rpi4',
      parameters: { resources: { memory: '8Gi' } },
      selector: { matchLabels: { board: 'rpi4' } },
      template: {
        metadata: { labels: { board: 'rpi4', arch: 'aarch64', virtual: 'true' } },
        spec: {
          drivers: [
            { type: 'jumpstarter_driver_power.driver.QemuPower' },
            { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { port: 22 } },
            { type: 'jumpstarter_driver_serial.driver.QemuSerial' },
          ],
        },
      },
    },
  };
}

/** A mutable view of a fixture, for tests that put wrong values where types forbid them. */
export type Loose = Record<string, any>;

export function loose<T>(value: T): Loose {
  return value as unknown as Loose;
}

/**
 * Every path (list of keys) to every node of `value`, the root included, so tests can put malformed
 * values in every position.
 */
export function allPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    value.forEach((item, index) => paths.push(...allPaths(item, [...prefix, index])));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) paths.push(...allPaths(item, [...prefix, key]));
  }
  return paths;
}

/** A copy of `root` with the node at `path` replaced by `replacement` (the root itself when path is empty). */
export function replaceAt(root: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(root) as Loose;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path[path.length - 1]] = replacement;
  return copy;
}

/** Malformed values of every JSON type (and undefined) to put anywhere. */
export const MALFORMED: readonly unknown[] = [
  null,
  undefined,
  [],
  [1, 'x'],
  'text',
  '',
  42,
  -1,
  1.5,
  true,
  {},
  { x: 1 },
];
