/**
 * The `/scale` subresource of custom resources: an `autoscaling/v1` Scale read from and written to
 * the paths the CRD names (`spec.replicas` ↔ specReplicasPath, `status.replicas` ↔
 * statusReplicasPath, `status.selector` ↔ labelSelectorPath). Paths are dotted, without the leading dot.
 */
import { cloneJson, isJsonMap } from './json-values';
import type { KubeObject, ResourceType } from './types';

function readPath(object: unknown, path: string): unknown {
  let node = object;
  for (const key of path.split('.')) node = isJsonMap(node) ? node[key] : undefined;
  return node;
}

/** Sets the value at a dotted path, creating the objects on the way. */
export function writePath(object: KubeObject, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = object;
  for (const key of keys.slice(0, -1)) {
    if (!isJsonMap(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

/** The Scale of `object`; absent replica counts read as 0. */
export function scaleOf(rt: ResourceType, object: KubeObject): KubeObject {
  const paths = rt.scale!;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  const replicas = readPath(object, paths.specReplicasPath);
  const statusReplicas = readPath(object, paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? readPath(object, paths.labelSelectorPath) : undefined;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: cloneJson({ name, namespace, uid, resourceVersion, creationTimestamp }),
    spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
    status: {
      replicas: typeof statusReplicas === 'number' ? statusReplicas : 0,
      ...(typeof selector === 'string' ? { selector } : {}),
    },
  };
}
