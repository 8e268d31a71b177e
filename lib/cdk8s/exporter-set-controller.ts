import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import type { ResourceRequirements } from '../api';
import {
  buildExporterSetController,
  DEFAULT_INSTALL_NAMESPACE,
  type ExporterSetControllerInput,
  type LogLevel,
} from '../manifests/installer';
import { validateExporterSetControllerInput } from '../manifests/validate-installer';
import { constructError } from './errors';

export interface ExporterSetControllerProps {
  /** Namespace the controller runs in (it must exist). @default "jumpstarter" */
  readonly namespace?: string;
  /** One controller Deployment per provisioner, each with `--provisioner=<name>`. @default ["qemu.jumpstarter.dev"] */
  readonly provisioners?: readonly string[];
  /** Namespaces to reconcile, each with its own Role. @default all namespaces, through a ClusterRole */
  readonly watchNamespaces?: readonly string[];
  /** Controller image. @default DEFAULT_CONTROLLER_IMAGE */
  readonly image?: string;
  /** @default "IfNotPresent" */
  readonly imagePullPolicy?: 'Always' | 'Never' | 'IfNotPresent';
  /** Replicas per Deployment (one leads). @default 1 */
  readonly replicas?: number;
  /** @default requests 50m/64Mi, limits 500m/256Mi */
  readonly resources?: ResourceRequirements;
  /** @default true */
  readonly leaderElect?: boolean;
  /** @default "info" */
  readonly logLevel?: LogLevel;
  /** Creations per reconcile pass. @default the controller's (50) */
  readonly maxBurst?: number;
  /** Concurrent reconcile workers. @default the controller's */
  readonly workers?: number;
  /** Install the ExporterSet and VirtualTargetClass CRDs. @default true */
  readonly installCrds?: boolean;
  /** Also install Exporter and Lease CRDs, for clusters without Jumpstarter only. @default false */
  readonly installJumpstarterCrds?: boolean;
}

const CLUSTER_SCOPED = new Set(['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);

/**
 * The installer (SPEC §4): CRDs, ServiceAccount, least-privilege RBAC, leader-election Role, one
 * Deployment per provisioner and a metrics Service. Each object is an `ApiObject` child whose id is
 * `<Kind>-<name>[-<namespace>]`.
 */
export class ExporterSetController extends Construct {
  public readonly namespace: string;
  public readonly apiObjects: readonly ApiObject[];

  constructor(scope: Construct, id: string, props: ExporterSetControllerProps = {}) {
    super(scope, id);
    const input: ExporterSetControllerInput = { ...props };
    const issues = validateExporterSetControllerInput(input);
    if (issues.length > 0) throw constructError(this, 'ExporterSetController', issues, (p) => p);
    this.namespace = props.namespace ?? DEFAULT_INSTALL_NAMESPACE;

    this.apiObjects = buildExporterSetController(input).map((obj) => {
      const metadata = obj.metadata as { name: string; namespace?: string };
      const kind = obj.kind as string;
      const childId = [kind, metadata.name, metadata.namespace].filter(Boolean).join('-');
      const apiObject = new ApiObject(this, childId, {
        ...obj,
        apiVersion: obj.apiVersion as string,
        kind,
        metadata,
      });
      // Cluster-scoped objects must not inherit the chart's namespace.
      if (CLUSTER_SCOPED.has(kind) && Chart.of(this).namespace !== undefined) {
        apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
      }
      return apiObject;
    });
  }
}
