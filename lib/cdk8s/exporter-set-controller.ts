import { ApiObject, Chart, Duration, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import type { JsonObject } from '../api';
import {
  buildExporterSetController,
  DEFAULT_INSTALL_NAMESPACE,
  provisionerShortName,
  type ExporterSetControllerInput,
} from '../manifests/installer';
import { installerProp } from '../manifests/prop-paths';
import { validateExporterSetControllerInput } from '../manifests/validate-installer';
import { constructError } from './errors';

/** Same props as the framework-neutral installer input: every field is optional, with `@default`s there. */
export type ExporterSetControllerProps = ExporterSetControllerInput;

const CLUSTER_SCOPED = new Set(['CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);

// The plain objects of lib/manifests, as far as this file reads them.
type Metadata = { name: string; namespace?: string; labels?: Record<string, string> };
type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
type EnvVar = { name: string; value?: string; valueFrom?: { fieldRef: { fieldPath: string } } };
type PlainProbe = { httpGet: { path: string; port: string | number }; [field: string]: unknown };
type PlainResources = Partial<Record<'requests' | 'limits', Record<string, string | number>>>;
type Port = { name: string; containerPort: number; protocol: string };
interface PlainContainer {
  name: string;
  image: string;
  imagePullPolicy: string;
  args: string[];
  env: EnvVar[];
  ports: Port[];
  livenessProbe: PlainProbe;
  readinessProbe: PlainProbe;
  resources?: PlainResources;
  securityContext: {
    runAsNonRoot: boolean;
    runAsUser: number;
    runAsGroup: number;
    allowPrivilegeEscalation: boolean;
    readOnlyRootFilesystem: boolean;
    capabilities: { drop: string[] };
    seccompProfile: { type: string };
  };
}
interface PlainDeployment {
  metadata: Metadata;
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        securityContext: { runAsNonRoot: boolean; seccompProfile: JsonObject };
        terminationGracePeriodSeconds: number;
        containers: PlainContainer[];
      };
    };
  };
}

/**
 * The installer: CRDs, ServiceAccount, least-privilege RBAC, leader-election Role, one
 * Deployment per provisioner and a metrics Service.
 *
 * The ServiceAccount, the roles, their bindings and the Deployments are cdk8s-plus-28 constructs
 * (`serviceAccount`, `clusterRole` or `roles`, `leaderElectionRole`, `deployments`), built from the
 * same framework-neutral objects the Pulumi component applies, so they can be shaped with the
 * cdk8s-plus API: `controller.deployment.scheduling.tolerate(...)`,
 * `controller.deployment.containers[0].env.addVariable(...)`, or a `kplus.NetworkPolicy` that selects
 * `controller.deployment`. cdk8s-plus writes a few safer or default settings the plain objects leave
 * out (see the README, "ExporterSetController"); the controller keeps its service-account token. The
 * CRDs, the metrics Service and the ops pack are plain `ApiObject`s. Each child's id is
 * `<Kind>-<name>[-<namespace>]`.
 */
export class ExporterSetController extends Construct {
  public readonly namespace: string;
  /** The L1 object of every Kubernetes object of the installation, in apply order. */
  public readonly apiObjects: readonly ApiObject[];
  /** The controller's ServiceAccount. Its own token mounting is off; the controller's Pods mount theirs. */
  public readonly serviceAccount: kplus.ServiceAccount;
  /** The controller's permissions when it watches every namespace (no `watchNamespaces`). */
  public readonly clusterRole?: kplus.ClusterRole;
  /** The controller's permissions in each watched namespace, in `watchNamespaces` order. */
  public readonly roles: readonly kplus.Role[];
  /** Leader election on a Lease in the controller's namespace. */
  public readonly leaderElectionRole: kplus.Role;
  /** One Deployment per provisioner, in `provisioners` order. */
  public readonly deployments: readonly kplus.Deployment[];

  constructor(scope: Construct, id: string, props: ExporterSetControllerProps = {}) {
    super(scope, id);
    const issues = validateExporterSetControllerInput(props);
    if (issues.length > 0) throw constructError(this, 'ExporterSetController', issues, installerProp);
    this.namespace = props.namespace ?? DEFAULT_INSTALL_NAMESPACE;

    const roles: kplus.Role[] = [];
    const deployments: kplus.Deployment[] = [];
    let serviceAccount: kplus.ServiceAccount | undefined;
    let leaderElectionRole: kplus.Role | undefined;
    const apiObjects: ApiObject[] = [];
    const roleByKey = new Map<string, kplus.Role | kplus.ClusterRole>();
    const roleKey = (kind: string, name: string, namespace?: string) => `${kind}/${namespace ?? ''}/${name}`;

    for (const obj of buildExporterSetController(props)) {
      const metadata = obj.metadata as unknown as Metadata;
      const kind = obj.kind as string;
      const childId = [kind, metadata.name, metadata.namespace].filter(Boolean).join('-');
      let apiObject: ApiObject;
      switch (kind) {
        case 'ServiceAccount': {
          // cdk8s-plus turns token mounting off on the account; the Deployments turn it on for their Pods.
          serviceAccount = new kplus.ServiceAccount(this, childId, { metadata });
          apiObject = ApiObject.of(serviceAccount);
          break;
        }
        case 'ClusterRole':
        case 'Role': {
          const role =
            kind === 'Role'
              ? new kplus.Role(this, childId, { metadata })
              : new kplus.ClusterRole(this, childId, { metadata });
          for (const rule of obj.rules as unknown as Rule[]) {
            const resources = rule.apiGroups.flatMap((apiGroup) =>
              rule.resources.map((resourceType) => kplus.ApiResource.custom({ apiGroup, resourceType })),
            );
            role.allow([...rule.verbs], ...resources);
          }
          roleByKey.set(roleKey(kind, metadata.name, metadata.namespace), role);
          if (role instanceof kplus.ClusterRole) this.clusterRole = role;
          else if (metadata.namespace === this.namespace && metadata.name.endsWith('-leader-election')) {
            leaderElectionRole = role;
          } else roles.push(role);
          apiObject = ApiObject.of(role);
          break;
        }
        case 'ClusterRoleBinding':
        case 'RoleBinding': {
          const roleRef = obj.roleRef as { kind: string; name: string };
          const role = roleByKey.get(
            roleKey(roleRef.kind, roleRef.name, kind === 'RoleBinding' ? metadata.namespace : undefined),
          );
          if (serviceAccount === undefined || role === undefined) {
            throw new Error(`${this.node.path}: ${kind} ${metadata.name} comes before its role or subject`);
          }
          const binding =
            kind === 'RoleBinding'
              ? new kplus.RoleBinding(this, childId, { metadata, role })
              : new kplus.ClusterRoleBinding(this, childId, { metadata, role: role as kplus.ClusterRole });
          binding.addSubjects(serviceAccount);
          apiObject = ApiObject.of(binding);
          break;
        }
        case 'Deployment': {
          if (serviceAccount === undefined) {
            throw new Error(
              `${this.node.path}: the Deployment ${metadata.name} comes before its ServiceAccount`,
            );
          }
          const deployment = controllerDeployment(
            this,
            childId,
            obj as unknown as PlainDeployment,
            serviceAccount,
          );
          deployments.push(deployment);
          apiObject = ApiObject.of(deployment);
          break;
        }
        default:
          apiObject = new ApiObject(this, childId, {
            ...obj,
            apiVersion: obj.apiVersion as string,
            kind,
            metadata,
          });
      }
      // Cluster-scoped objects must not inherit the chart's namespace.
      if (CLUSTER_SCOPED.has(kind) && Chart.of(this).namespace !== undefined) {
        apiObject.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
      }
      apiObjects.push(apiObject);
    }
    if (serviceAccount === undefined || leaderElectionRole === undefined) {
      throw new Error(`${this.node.path}: the installer wrote no ServiceAccount or leader-election Role`);
    }
    this.serviceAccount = serviceAccount;
    this.leaderElectionRole = leaderElectionRole;
    this.roles = roles;
    this.deployments = deployments;
    this.apiObjects = apiObjects;
  }

  /**
   * The controller's Deployment when it runs one provisioner (the default). With several, use
   * `deployments` or `deploymentFor(provisioner)`.
   */
  public get deployment(): kplus.Deployment {
    if (this.deployments.length !== 1) {
      throw new Error(
        `${this.node.path}: this controller runs ${this.deployments.length} Deployments, one per provisioner; ` +
          'pick one with deploymentFor(provisioner) or go through deployments',
      );
    }
    return this.deployments[0];
  }

  /** The Deployment that runs `provisioner` (for example `qemu.jumpstarter.dev`). */
  public deploymentFor(provisioner: string): kplus.Deployment {
    const suffix = `-${provisionerShortName(provisioner)}`;
    const found = this.deployments.find((d) => d.name.endsWith(suffix));
    if (found === undefined) {
      throw new Error(
        `${this.node.path}: no Deployment runs provisioner "${provisioner}"; add it to the provisioners prop`,
      );
    }
    return found;
  }
}

/**
 * The cdk8s-plus Deployment for one plain controller Deployment of lib/manifests. What cdk8s-plus
 * cannot say as the plain object does is set on the L1 object: the exact resource quantities, the
 * probes (on the named port "health") and the Pod's seccomp profile.
 */
function controllerDeployment(
  scope: Construct,
  id: string,
  plain: PlainDeployment,
  serviceAccount: kplus.ServiceAccount,
): kplus.Deployment {
  const pod = plain.spec.template.spec;
  if (pod.containers.length !== 1) throw new Error(`${id}: the controller Pod has one container`);
  const [c] = pod.containers;
  const deployment = new kplus.Deployment(scope, id, {
    metadata: plain.metadata,
    replicas: plain.spec.replicas,
    // The selector stays the plain one: a Deployment's selector cannot change once applied.
    select: false,
    podMetadata: { labels: plain.spec.template.metadata.labels },
    serviceAccount,
    // The controller talks to the API server with its ServiceAccount's token.
    automountServiceAccountToken: true,
    securityContext: { ensureNonRoot: pod.securityContext.runAsNonRoot },
    terminationGracePeriod: Duration.seconds(pod.terminationGracePeriodSeconds),
  });
  deployment.select(kplus.LabelSelector.of({ labels: plain.spec.selector.matchLabels }));
  // cdk8s-plus selects the Pods by this label (network policies, Pod affinity). Its own value is the
  // construct path cut to 63 characters, which a wrapping construct (the jsii facade's `Default`)
  // would change: the Deployment's name and the path's hash say the same, whatever wraps it.
  const name = plain.metadata.name.slice(0, 54).replace(/[^0-9A-Za-z]+$/, '');
  deployment.podMetadata.addLabel(kplus.Pod.ADDRESS_LABEL, `${name}-${deployment.node.addr.slice(0, 8)}`);
  deployment.addContainer({
    name: c.name,
    image: c.image,
    imagePullPolicy: c.imagePullPolicy as kplus.ImagePullPolicy,
    args: c.args,
    envVariables: Object.fromEntries(c.env.map((e) => [e.name, envValue(e)])),
    ports: c.ports.map((p) => ({
      name: p.name,
      number: p.containerPort,
      protocol: p.protocol as kplus.Protocol,
    })),
    // Set below as written (cdk8s-plus would give a container without them its own sizes).
    resources: {},
    securityContext: {
      ensureNonRoot: c.securityContext.runAsNonRoot,
      user: c.securityContext.runAsUser,
      group: c.securityContext.runAsGroup,
      allowPrivilegeEscalation: c.securityContext.allowPrivilegeEscalation,
      readOnlyRootFilesystem: c.securityContext.readOnlyRootFilesystem,
      capabilities: { drop: c.securityContext.capabilities.drop as kplus.Capability[] },
      seccompProfile: { type: c.securityContext.seccompProfile.type as kplus.SeccompProfileType },
    },
  });
  // The generated L1 object renders the patched spec through its typed mapping again: quantities and
  // ports go in as the typed values it expects.
  const resource = ApiObject.of(deployment);
  const container = '/spec/template/spec/containers/0';
  if (c.resources !== undefined) {
    resource.addJsonPatch(JsonPatch.add(`${container}/resources`, typedResources(c.resources)));
  }
  resource.addJsonPatch(
    JsonPatch.add(`${container}/livenessProbe`, typedProbe(c.livenessProbe)),
    JsonPatch.add(`${container}/readinessProbe`, typedProbe(c.readinessProbe)),
    JsonPatch.add('/spec/template/spec/securityContext/seccompProfile', pod.securityContext.seccompProfile),
  );
  return deployment;
}

/** Requests and limits as `k8s.Quantity` values, as written. */
function typedResources(resources: PlainResources): Record<string, Record<string, kplus.k8s.Quantity>> {
  return Object.fromEntries(
    Object.entries(resources).map(([group, quantities]) => [
      group,
      Object.fromEntries(
        Object.entries(quantities ?? {}).map(([name, q]) => [name, kplus.k8s.Quantity.fromString(String(q))]),
      ),
    ]),
  );
}

/** An HTTP probe with its port as a `k8s.IntOrString` (the plain probes name the port "health"). */
function typedProbe(probe: PlainProbe): Omit<PlainProbe, 'httpGet'> & {
  httpGet: { path: string; port: kplus.k8s.IntOrString };
} {
  const { port } = probe.httpGet;
  return {
    ...probe,
    httpGet: {
      ...probe.httpGet,
      port:
        typeof port === 'number'
          ? kplus.k8s.IntOrString.fromNumber(port)
          : kplus.k8s.IntOrString.fromString(port),
    },
  };
}

function envValue(e: EnvVar): kplus.EnvValue {
  if (e.valueFrom !== undefined) {
    return kplus.EnvValue.fromFieldRef(e.valueFrom.fieldRef.fieldPath as kplus.EnvFieldPaths);
  }
  return kplus.EnvValue.fromValue(e.value ?? '');
}
