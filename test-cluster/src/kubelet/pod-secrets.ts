/**
 * The Secrets a Pod needs before a kubelet starts its containers (secret volumes, `envFrom`,
 * `secretKeyRef`), and the waiting reason a kubelet shows while one is missing.
 */
import type { KubeObject } from '../types';

interface ContainerRefs {
  envFrom?: { secretRef?: { name?: string; optional?: boolean } }[];
  env?: { valueFrom?: { secretKeyRef?: { name?: string; key?: string; optional?: boolean } } }[];
}

/**
 * The first Secret (or Secret key, for `env[].valueFrom.secretKeyRef`) the Pod needs that does not
 * exist, with the waiting reason a kubelet shows.
 */
export function missingSecret(
  pod: KubeObject,
  secretOf: (name: string) => KubeObject | undefined,
): { reason: string; message: string } | undefined {
  const exists = (name: string) => secretOf(name) !== undefined;
  const spec = (pod.spec ?? {}) as {
    volumes?: { name: string; secret?: { secretName?: string; optional?: boolean } }[];
    containers?: ContainerRefs[];
    initContainers?: ContainerRefs[];
  };
  for (const volume of spec.volumes ?? []) {
    const name = volume.secret?.secretName;
    if (name !== undefined && volume.secret?.optional !== true && !exists(name)) {
      return {
        reason: 'ContainerCreating',
        message: `MountVolume.SetUp failed for volume "${volume.name}" : secret "${name}" not found`,
      };
    }
  }
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    for (const source of container.envFrom ?? []) {
      const name = source.secretRef?.name;
      if (name !== undefined && source.secretRef?.optional !== true && !exists(name)) {
        return { reason: 'CreateContainerConfigError', message: `secret "${name}" not found` };
      }
    }
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref?.name === undefined || ref.optional === true) continue;
      const secret = secretOf(ref.name);
      if (secret === undefined) {
        return { reason: 'CreateContainerConfigError', message: `secret "${ref.name}" not found` };
      }
      const data = { ...(secret.data as object | undefined), ...(secret.stringData as object | undefined) };
      if (ref.key === undefined || !Object.hasOwn(data, ref.key)) {
        return {
          reason: 'CreateContainerConfigError',
          message: `couldn't find key ${ref.key} in Secret ${secret.metadata.namespace}/${ref.name}`,
        };
      }
    }
  }
  return undefined;
}
