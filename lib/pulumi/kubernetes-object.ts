import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { JsonObject } from '../api';
import { isPlainObject } from '../core/plain-object';

/**
 * One typed `@pulumi/kubernetes` resource for a built object, so `pulumi preview` shows Kubernetes
 * kinds and the provider applies each with its own await logic. `shape` is the object as built from
 * the plain args (it fixes the kind and the top-level fields); `object` is the object to apply.
 */
export function kubernetesObject(
  name: string,
  shape: JsonObject,
  object: pulumi.Output<JsonObject>,
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResource {
  // The built objects are what the tests and the CRD validator check; the Args types only add Inputs.
  // Pulumi's serializer tells lists by `instanceof Array`, so lists from another realm (`structuredClone`
  // inside a vm sandbox such as jest's) are copied into this one.
  const fields = Object.fromEntries(
    Object.keys(shape)
      .filter((key) => key !== 'apiVersion' && key !== 'kind')
      .map((key) => [key, object.apply((o) => ownRealm(o[key]))]),
  ) as unknown;
  switch (shape.kind) {
    case 'CustomResourceDefinition':
      return new k8s.apiextensions.v1.CustomResourceDefinition(
        name,
        fields as k8s.apiextensions.v1.CustomResourceDefinitionArgs,
        opts,
      );
    case 'ServiceAccount':
      return new k8s.core.v1.ServiceAccount(name, fields as k8s.core.v1.ServiceAccountArgs, opts);
    case 'Service':
      return new k8s.core.v1.Service(name, fields as k8s.core.v1.ServiceArgs, opts);
    case 'Deployment':
      return new k8s.apps.v1.Deployment(name, fields as k8s.apps.v1.DeploymentArgs, opts);
    case 'Role':
      return new k8s.rbac.v1.Role(name, fields as k8s.rbac.v1.RoleArgs, opts);
    case 'RoleBinding':
      return new k8s.rbac.v1.RoleBinding(name, fields as k8s.rbac.v1.RoleBindingArgs, opts);
    case 'ClusterRole':
      return new k8s.rbac.v1.ClusterRole(name, fields as k8s.rbac.v1.ClusterRoleArgs, opts);
    case 'ClusterRoleBinding':
      return new k8s.rbac.v1.ClusterRoleBinding(name, fields as k8s.rbac.v1.ClusterRoleBindingArgs, opts);
    case 'ConfigMap':
      return new k8s.core.v1.ConfigMap(name, fields as k8s.core.v1.ConfigMapArgs, opts);
    // The ops pack's Prometheus Operator kinds have no typed class in @pulumi/kubernetes.
    case 'ServiceMonitor':
    case 'PrometheusRule':
      return new k8s.apiextensions.CustomResource(
        name,
        {
          ...(fields as Record<string, pulumi.Input<unknown>>),
          apiVersion: shape.apiVersion as string,
          kind: shape.kind,
        },
        opts,
      );
    default:
      throw new Error(
        `no @pulumi/kubernetes resource is mapped for kind ${JSON.stringify(shape.kind)}; add it to kubernetesObject`,
      );
  }
}

/** A copy of JSON-like data whose lists and objects belong to this realm (`map` would keep the other's). */
function ownRealm(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from(value as unknown[], ownRealm);
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ownRealm(v)]));
  return value;
}
