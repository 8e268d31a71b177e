import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import type { JsonObject, ResourceRequirements } from '../api';
import {
  buildExporterSetController,
  DEFAULT_INSTALL_NAMESPACE,
  type ExporterSetControllerInput,
  type LogLevel,
} from '../manifests/installer';
import { installerProp } from '../manifests/prop-paths';
import { validateExporterSetControllerInput } from '../manifests/validate-installer';
import { dependsOnWith, invalidArgsError, isPlain, resolve, TYPE_PREFIX } from './args';
import { kubernetesObject } from './kubernetes-object';

/**
 * The same props as the cdk8s `ExporterSetController`. The ones that decide which objects exist
 * (`provisioners`, `watchNamespaces`, `installCrds`, `installJumpstarterCrds`) are plain values, because
 * Pulumi must know its resources before Outputs resolve; the rest may be Inputs.
 */
export interface ExporterSetControllerArgs {
  /** Namespace the controller runs in. @default "jumpstarter" */
  readonly namespace?: pulumi.Input<string>;
  /** One Deployment per provisioner. @default ["qemu.jumpstarter.dev"] */
  readonly provisioners?: readonly string[];
  /** Namespaces to reconcile, with a Role in each. @default all namespaces, with a ClusterRole */
  readonly watchNamespaces?: readonly string[];
  /**
   * The controller image. @default "exporter-set-controller:0.1.0" — the image the repository's
   * controller guide ("Container image") says how to build (`docker build -f controller/Dockerfile -t exporter-set-controller:0.1.0 .`);
   * it must be on the nodes, so usually set this to where you pushed it.
   */
  readonly image?: pulumi.Input<string>;
  /** @default "IfNotPresent" */
  readonly imagePullPolicy?: pulumi.Input<'Always' | 'Never' | 'IfNotPresent'>;
  /** Replicas per Deployment; more than one needs leader election. @default 1 */
  readonly replicas?: pulumi.Input<number>;
  /** @default requests 50m CPU and 64Mi, limits 500m and 512Mi (about 300 MiB at 10,000 instances, bench P4) */
  readonly resources?: pulumi.Input<ResourceRequirements>;
  /** @default true */
  readonly leaderElect?: pulumi.Input<boolean>;
  /** @default "info" */
  readonly logLevel?: pulumi.Input<LogLevel>;
  /** Creations per reconcile pass. @default the controller's (50) */
  readonly maxBurst?: pulumi.Input<number>;
  /** Concurrent reconcile workers. @default the controller's */
  readonly workers?: pulumi.Input<number>;
  /** Install the ExporterSet and VirtualTargetClass CRDs. @default true */
  readonly installCrds?: boolean;
  /** Also install our Exporter and Lease CRDs; only for clusters without Jumpstarter. @default false */
  readonly installJumpstarterCrds?: boolean;
}

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
    const layout: ExporterSetControllerInput = {
      provisioners: args.provisioners,
      watchNamespaces: args.watchNamespaces,
      installCrds: args.installCrds,
      installJumpstarterCrds: args.installJumpstarterCrds,
    };
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
