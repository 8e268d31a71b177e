import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import {
  buildExporterSetController,
  DEFAULT_INSTALL_NAMESPACE,
  type ExporterSetControllerInput,
} from '../manifests/installer';
import { installerProp } from '../manifests/prop-paths';
import { validateExporterSetControllerInput } from '../manifests/validate-installer';
import { constructError } from './errors';

/** Same props as the framework-neutral installer input: every field is optional, with `@default`s there. */
export type ExporterSetControllerProps = ExporterSetControllerInput;

const CLUSTER_SCOPED = new Set(['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);

/**
 * The installer: CRDs, ServiceAccount, least-privilege RBAC, leader-election Role, one
 * Deployment per provisioner and a metrics Service. Each object is an `ApiObject` child whose id is
 * `<Kind>-<name>[-<namespace>]`.
 */
export class ExporterSetController extends Construct {
  public readonly namespace: string;
  public readonly apiObjects: readonly ApiObject[];

  constructor(scope: Construct, id: string, props: ExporterSetControllerProps = {}) {
    super(scope, id);
    const issues = validateExporterSetControllerInput(props);
    if (issues.length > 0) throw constructError(this, 'ExporterSetController', issues, installerProp);
    this.namespace = props.namespace ?? DEFAULT_INSTALL_NAMESPACE;

    this.apiObjects = buildExporterSetController(props).map((obj) => {
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
