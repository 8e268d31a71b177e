import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { JsonObject } from '../api';
import {
  buildExporterSetController,
  DEFAULT_INSTALL_NAMESPACE,
  INSTALLER_LAYOUT_FIELDS,
  type ExporterSetControllerInput,
  type InstallerLayoutField,
} from '../manifests/installer';
import { installerProp } from '../manifests/prop-paths';
import { validateExporterSetControllerInput } from '../manifests/validate-installer';
import { dependsOnWith, invalidArgsError, isPlain, resolve, TYPE_PREFIX, type InputsOf } from './args';
import { kubernetesObject } from './kubernetes-object';

/**
 * The framework-neutral installer settings (`ExporterSetControllerInput`, where each is documented). The layout fields, which decide which
 * objects exist (`provisioners`, `watchNamespaces`, `installCrds`, `installJumpstarterCrds`, `opsPack`), are plain
 * values, because Pulumi must know its resources before Outputs resolve; the rest may be Inputs.
 */
export interface ExporterSetControllerArgs
  extends
    InputsOf<Omit<ExporterSetControllerInput, InstallerLayoutField>>,
    Pick<ExporterSetControllerInput, InstallerLayoutField> {}

// Stands in for the install namespace while the object list is laid out from the plain args, so
// objects in watched namespaces can be told apart from those in the install namespace.
const INSTALL_NAMESPACE = '\u0000install-namespace';

/**
 * The installer: CRDs, ServiceAccount, least-privilege RBAC, leader-election Role, one
 * Deployment per provisioner and a metrics Service, each a typed `@pulumi/kubernetes` resource named
 * `<name>-<object name>` (`-<namespace>` added for RBAC in watched namespaces). Each Deployment waits
 * for the CRDs and RBAC; give pools `{ dependsOn: controller.crds }` so the CRDs exist before them.
 */
export class ExporterSetController extends pulumi.ComponentResource {
  public static readonly type = `${TYPE_PREFIX}ExporterSetController`;

  public readonly namespace: pulumi.Output<string>;
  /** The CRDs this installation applies (none with `installCrds: false`). */
  public readonly crds: k8s.apiextensions.v1.CustomResourceDefinition[];
  /** One per provisioner. */
  public readonly deployments: k8s.apps.v1.Deployment[];
  /** Every object, in apply order. */
  public readonly resources: pulumi.CustomResource[];

  constructor(name: string, args: ExporterSetControllerArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    super(ExporterSetController.type, name, {}, opts);
    const check = (input: ExporterSetControllerInput): JsonObject[] => {
      const issues = validateExporterSetControllerInput(input);
      if (issues.length > 0) {
        throw invalidArgsError(
          ExporterSetController.type,
          name,
          'ExporterSetController',
          issues,
          installerProp,
        );
      }
      return buildExporterSetController(input);
    };
    const layout: Pick<ExporterSetControllerInput, InstallerLayoutField> = Object.fromEntries(
      INSTALLER_LAYOUT_FIELDS.map((field) => [field, args[field]]),
    );
    // The plain args decide the resource names, so they are checked now even when others are Outputs.
    check(isPlain(args) ? (args as ExporterSetControllerInput) : layout);
    const shapes = buildExporterSetController({ ...layout, namespace: INSTALL_NAMESPACE });
    const objects = resolve(args).apply((a) => check(a as ExporterSetControllerInput));

    this.namespace = resolve(args.namespace).apply((ns) => ns ?? DEFAULT_INSTALL_NAMESPACE);
    this.crds = [];
    this.deployments = [];
    this.resources = [];
    shapes.forEach((shape, i) => {
      const metadata = shape.metadata as { name: string; namespace?: string };
      const watched = metadata.namespace !== undefined && metadata.namespace !== INSTALL_NAMESPACE;
      const childName = [name, metadata.name, watched ? metadata.namespace : undefined]
        .filter(Boolean)
        .join('-');
      // The controller crash-loops without its CRDs and permissions: its Deployments come after them.
      const before = shape.kind === 'Deployment' ? this.resources.filter((r) => !isWorkload(r)) : [];
      const resource = kubernetesObject(
        childName,
        shape,
        objects.apply((list) => list[i]),
        { parent: this, dependsOn: dependsOnWith(opts?.dependsOn, before) },
      );
      this.resources.push(resource);
      if (resource instanceof k8s.apiextensions.v1.CustomResourceDefinition) this.crds.push(resource);
      if (resource instanceof k8s.apps.v1.Deployment) this.deployments.push(resource);
    });

    this.registerOutputs({
      namespace: this.namespace,
      crdNames: this.crds.map((crd) => crd.metadata.name),
      deploymentNames: this.deployments.map((d) => d.metadata.name),
    });
  }
}

function isWorkload(resource: pulumi.CustomResource): boolean {
  return resource instanceof k8s.apps.v1.Deployment || resource instanceof k8s.core.v1.Service;
}
