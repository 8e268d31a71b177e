import { Labels, ProvisionerNames, type JsonObject, type ResourceRequirements } from '../api';
import { jumpstarterCrds, ourCrds } from '../crds';
import { compact } from './compact';
import { getProvisioner } from '../provisioners/registry';
import { buildOpsPack, type OpsPackInput } from './ops-pack';
import { controllerRules, LEADER_ELECTION_RULES, toPolicyRules } from './rbac';

/**
 * The image the repository's controller guide ("Container image") tells you to build from this
 * version's controller/Dockerfile (`docker build -f controller/Dockerfile -t exporter-set-controller:0.1.0 .`). No registry serves it:
 * load it into the cluster's nodes (e.g. `kind load docker-image`), or push it to your registry and
 * set `image`. Its tag is the package's version (a unit test checks both agree).
 */
export const DEFAULT_CONTROLLER_IMAGE = 'exporter-set-controller:0.1.0';
export const DEFAULT_INSTALL_NAMESPACE = 'jumpstarter';
export const CONTROLLER_NAME = 'exporter-set-controller';
export const METRICS_PORT = 8080;
export const HEALTH_PORT = 8081;
/** The uid of the distroless `nonroot` user the controller image runs as. */
export const CONTROLLER_UID = 65532;

/** The memory limit leaves room for ≈ 10,000 cached instances (≈ 300 MiB resident). */
export const DEFAULT_CONTROLLER_RESOURCES: ResourceRequirements = {
  requests: { cpu: '50m', memory: '64Mi' },
  limits: { cpu: '500m', memory: '512Mi' },
};

/**
 * The runtime settings of the controller's process, set in its Deployment (the benchmarks run the
 * controller with these, read from the rendered Deployment): a 2 MiB V8 semi-space instead of
 * Node's 16 MiB, so garbage from a burst of passes (1,000 sets after a restart) is collected young
 * instead of growing the heap for good, and two glibc malloc arenas instead of one per thread, so
 * response buffers freed by the main thread do not stay spread over idle arenas.
 */
export const CONTROLLER_RUNTIME_ENV: Readonly<Record<string, string>> = {
  NODE_OPTIONS: '--max-semi-space-size=2',
  MALLOC_ARENA_MAX: '2',
};

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Framework-neutral description of a controller installation, documented once: the cdk8s props are
 * these fields, the Pulumi args these fields as `pulumi.Input`s (but for the layout fields).
 */
export interface ExporterSetControllerInput {
  /** Namespace the controller runs in. @default "jumpstarter" */
  readonly namespace?: string;
  /** One Deployment per provisioner. @default ["qemu.jumpstarter.dev"] */
  readonly provisioners?: readonly string[];
  /** Namespaces to reconcile, with a Role in each. @default all namespaces, with a ClusterRole */
  readonly watchNamespaces?: readonly string[];
  /**
   * The controller image. @default "exporter-set-controller:0.1.0" — the image the repository's
   * controller guide ("Container image") says how to build (`docker build -f controller/Dockerfile -t exporter-set-controller:0.1.0 .`);
   * it must be on the nodes, so usually set this to where you pushed it.
   */
  readonly image?: string;
  /** @default "IfNotPresent" */
  readonly imagePullPolicy?: 'Always' | 'Never' | 'IfNotPresent';
  /** Replicas per Deployment; more than one needs leader election. @default 1 */
  readonly replicas?: number;
  /** @default requests 50m CPU and 64Mi, limits 500m and 512Mi (about 300 MiB are used at 10,000 instances) */
  readonly resources?: ResourceRequirements;
  /** @default true */
  readonly leaderElect?: boolean;
  /** @default "info" */
  readonly logLevel?: LogLevel;
  /** Creations per reconcile pass. @default the controller's (50) */
  readonly maxBurst?: number;
  /** Concurrent reconcile workers. @default the controller's */
  readonly workers?: number;
  /** Install our CRDs (ExporterSet, VirtualTargetClass, ExporterOperation). @default true */
  readonly installCrds?: boolean;
  /** Also install our Exporter and Lease CRDs; only for clusters without Jumpstarter. @default false */
  readonly installJumpstarterCrds?: boolean;
  /**
   * The ops pack: a ServiceMonitor, a PrometheusRule with runbooks, and Grafana and Perses dashboards
   * in ConfigMaps, each asked for by its own switch. @default none of them
   */
  readonly opsPack?: OpsPackInput;
}

/**
 * The fields that decide which objects an installation has. A front end that must know its resources
 * before their values resolve (Pulumi) takes these as plain values.
 */
export const INSTALLER_LAYOUT_FIELDS = [
  'provisioners',
  'watchNamespaces',
  'installCrds',
  'installJumpstarterCrds',
  'opsPack',
] as const;
export type InstallerLayoutField = (typeof INSTALLER_LAYOUT_FIELDS)[number];

/** `qemu.jumpstarter.dev` → `qemu`: the per-provisioner suffix of object names. */
export function provisionerShortName(provisioner: string): string {
  return provisioner.split('.')[0];
}

function commonLabels(component: string, instance?: string): Record<string, string> {
  return compact<Record<string, string | undefined>>({
    [Labels.appName]: CONTROLLER_NAME,
    [Labels.appComponent]: component,
    [Labels.appInstance]: instance,
    [Labels.appPartOf]: 'virtual-exporters',
  }) as Record<string, string>;
}

function deployment(input: ExporterSetControllerInput, namespace: string, provisioner: string): JsonObject {
  const short = provisionerShortName(provisioner);
  const selector = { [Labels.appName]: CONTROLLER_NAME, [Labels.appInstance]: short };
  const args = [
    `--provisioner=${provisioner}`,
    ...((input.leaderElect ?? true) ? ['--leader-elect'] : []),
    `--health-probe-bind-address=:${HEALTH_PORT}`,
    `--metrics-bind-address=:${METRICS_PORT}`,
    `--log-level=${input.logLevel ?? 'info'}`,
    ...(input.watchNamespaces ?? []).map((ns) => `--namespace=${ns}`),
    ...(input.maxBurst !== undefined ? [`--max-burst=${input.maxBurst}`] : []),
    ...(input.workers !== undefined ? [`--workers=${input.workers}`] : []),
  ];
  return compact({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${CONTROLLER_NAME}-${short}`, namespace, labels: commonLabels('controller', short) },
    spec: {
      replicas: input.replicas ?? 1,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: commonLabels('controller', short) },
        spec: {
          serviceAccountName: CONTROLLER_NAME,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: 'controller',
              image: input.image ?? DEFAULT_CONTROLLER_IMAGE,
              imagePullPolicy: input.imagePullPolicy ?? 'IfNotPresent',
              args,
              env: [
                { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                ...Object.entries(CONTROLLER_RUNTIME_ENV).map(([name, value]) => ({ name, value })),
              ],
              ports: [
                { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
                { name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' },
              ],
              livenessProbe: {
                httpGet: { path: '/healthz', port: 'health' },
                initialDelaySeconds: 15,
                periodSeconds: 20,
              },
              readinessProbe: {
                httpGet: { path: '/readyz', port: 'health' },
                initialDelaySeconds: 5,
                periodSeconds: 10,
              },
              resources: input.resources ?? DEFAULT_CONTROLLER_RESOURCES,
              securityContext: {
                runAsNonRoot: true,
                runAsUser: CONTROLLER_UID,
                runAsGroup: CONTROLLER_UID,
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'RuntimeDefault' },
              },
            },
          ],
        },
      },
    },
  }) as unknown as JsonObject;
}

/**
 * Every object of a controller installation, in apply order: CRDs, ServiceAccount, RBAC, leader
 * election, one Deployment per provisioner, the metrics Service, then the parts of the ops pack asked
 * for (monitoring objects, dashboards). Inputs are validated by
 * `validateExporterSetControllerInput` first.
 */
export function buildExporterSetController(input: ExporterSetControllerInput): JsonObject[] {
  const namespace = input.namespace ?? DEFAULT_INSTALL_NAMESPACE;
  const provisioners = input.provisioners ?? [ProvisionerNames.qemu];
  const subject = { kind: 'ServiceAccount', name: CONTROLLER_NAME, namespace };
  const objects: JsonObject[] = [];

  const crds = [
    ...((input.installCrds ?? true) ? ourCrds : []),
    ...(input.installJumpstarterCrds ? jumpstarterCrds : []),
  ];
  objects.push(...crds.map((crd) => structuredClone(crd) as unknown as JsonObject));

  objects.push({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: CONTROLLER_NAME, namespace, labels: commonLabels('controller') },
  });

  // One ServiceAccount runs every provisioner's Deployment: the rules are the union of theirs.
  const lifecycle = provisioners.some((p) => getProvisioner(p)?.lifecycle !== undefined);
  const rules = toPolicyRules(controllerRules({ lifecycle }));
  const watch = input.watchNamespaces ?? [];
  if (watch.length === 0) {
    objects.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: CONTROLLER_NAME, labels: commonLabels('rbac') },
        rules,
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: CONTROLLER_NAME, labels: commonLabels('rbac') },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CONTROLLER_NAME },
        subjects: [subject],
      },
    );
  } else {
    for (const ns of watch) {
      objects.push(
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: CONTROLLER_NAME, namespace: ns, labels: commonLabels('rbac') },
          rules,
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: CONTROLLER_NAME, namespace: ns, labels: commonLabels('rbac') },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: CONTROLLER_NAME },
          subjects: [subject],
        },
      );
    }
  }

  const leaderElection = `${CONTROLLER_NAME}-leader-election`;
  objects.push(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: leaderElection, namespace, labels: commonLabels('rbac') },
      rules: toPolicyRules(LEADER_ELECTION_RULES),
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: leaderElection, namespace, labels: commonLabels('rbac') },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: leaderElection },
      subjects: [subject],
    },
  );

  objects.push(...provisioners.map((p) => deployment(input, namespace, p)));

  const metricsService = { name: `${CONTROLLER_NAME}-metrics`, labels: commonLabels('metrics') };
  objects.push({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: metricsService.name, namespace, labels: metricsService.labels },
    spec: {
      selector: { [Labels.appName]: CONTROLLER_NAME, [Labels.appComponent]: 'controller' },
      ports: [{ name: 'metrics', port: METRICS_PORT, targetPort: 'metrics', protocol: 'TCP' }],
    },
  });
  objects.push(
    ...buildOpsPack(input.opsPack, {
      namespace,
      name: CONTROLLER_NAME,
      metricsService,
      labelsFor: (component) => commonLabels(component),
    }),
  );
  return objects;
}
