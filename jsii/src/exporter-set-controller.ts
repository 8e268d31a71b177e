import type { ApiObject, Duration } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import * as lib from 'virtual-exporters/cdk8s';
import type { ImagePullPolicy, LogLevel } from './enums';
import { buildInner, DEFAULT_CHILD_ID } from './errors';
import { withoutUndefined } from './convert';
import type { OpsPack, ResourceRequirements } from './structs';

/** Props of the installer; every field has a default. */
export interface ExporterSetControllerProps {
  /** Namespace the controller runs in. @default "jumpstarter" */
  readonly namespace?: string;
  /** One Deployment per provisioner. @default ["qemu.jumpstarter.dev"] */
  readonly provisioners?: string[];
  /** Namespaces to reconcile, with a Role in each. @default all namespaces, with a ClusterRole */
  readonly watchNamespaces?: string[];
  /** The controller image; it must be on the nodes, so usually where you pushed it. @default "exporter-set-controller:0.1.0" */
  readonly image?: string;
  /** @default ImagePullPolicy.IF_NOT_PRESENT */
  readonly imagePullPolicy?: ImagePullPolicy;
  /** Replicas per Deployment; more than one needs leader election. @default 1 */
  readonly replicas?: number;
  /** @default requests 50m CPU and 64Mi, limits 500m and 512Mi */
  readonly resources?: ResourceRequirements;
  /** @default true */
  readonly leaderElect?: boolean;
  /** @default LogLevel.INFO */
  readonly logLevel?: LogLevel;
  /** Creations per reconcile pass. @default the controller's (50) */
  readonly maxBurst?: number;
  /** Concurrent reconcile workers. @default the controller's */
  readonly workers?: number;
  /** Install our CRDs (ExporterSet, VirtualTargetClass, ExporterOperation). @default true */
  readonly installCrds?: boolean;
  /** Also install our Exporter and Lease CRDs; only for clusters without Jumpstarter. @default false */
  readonly installJumpstarterCrds?: boolean;
  /** Monitoring objects: ServiceMonitor, PrometheusRule, dashboards. @default none of them */
  readonly opsPack?: OpsPack;
}

/** A Prometheus duration in whole seconds (`30s`). */
function prometheusDuration(duration: Duration): string {
  return `${duration.toSeconds()}s`;
}

/**
 * The installer: CRDs, ServiceAccount, least-privilege RBAC, leader-election Role, one Deployment per
 * provisioner and a metrics Service. Builds the TypeScript library's `ExporterSetController` as its
 * child `Default`. Its ServiceAccount, roles and Deployments are cdk8s-plus-28 objects: shape them
 * with the cdk8s-plus API (`controller.deployment.scheduling`, a `NetworkPolicy` on
 * `controller.deployment`).
 */
export class ExporterSetController extends Construct {
  /** The namespace the controller runs in. */
  public readonly namespace: string;
  /** Every object of the installation. */
  public readonly apiObjects: ApiObject[];
  /** The controller's ServiceAccount. Its own token mounting is off; the controller's Pods mount theirs. */
  public readonly serviceAccount: kplus.ServiceAccount;
  /** The controller's permissions when it watches every namespace (no `watchNamespaces`). */
  public readonly clusterRole?: kplus.ClusterRole;
  /** The controller's permissions in each watched namespace, in `watchNamespaces` order. */
  public readonly roles: kplus.Role[];
  /** Leader election on a Lease in the controller's namespace. */
  public readonly leaderElectionRole: kplus.Role;
  /** One Deployment per provisioner, in `provisioners` order. */
  public readonly deployments: kplus.Deployment[];
  private readonly inner: lib.ExporterSetController;

  constructor(scope: Construct, id: string, props: ExporterSetControllerProps = {}) {
    super(scope, id);
    const { opsPack, ...rest } = props;
    const libProps: lib.ExporterSetControllerProps = {
      ...rest,
      opsPack: opsPack && {
        ...opsPack,
        scrapeInterval: opsPack.scrapeInterval && prometheusDuration(opsPack.scrapeInterval),
      },
    };
    const inner = buildInner(
      this,
      () => new lib.ExporterSetController(this, DEFAULT_CHILD_ID, withoutUndefined(libProps)),
    );
    this.inner = inner;
    this.namespace = inner.namespace;
    this.apiObjects = [...inner.apiObjects];
    this.serviceAccount = inner.serviceAccount;
    this.clusterRole = inner.clusterRole;
    this.roles = [...inner.roles];
    this.leaderElectionRole = inner.leaderElectionRole;
    this.deployments = [...inner.deployments];
  }

  /**
   * The controller's Deployment when it runs one provisioner (the default). With several, use
   * `deployments` or `deploymentFor(provisioner)`.
   */
  public get deployment(): kplus.Deployment {
    return this.inner.deployment;
  }

  /** The Deployment that runs `provisioner` (for example `qemu.jumpstarter.dev`). */
  public deploymentFor(provisioner: string): kplus.Deployment {
    return this.inner.deploymentFor(provisioner);
  }
}
