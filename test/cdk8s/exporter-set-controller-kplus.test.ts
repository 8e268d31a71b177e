/**
 * The cdk8s ExporterSetController builds its ServiceAccount, roles, bindings and Deployments with
 * cdk8s-plus-28 and exposes them. Its objects differ from the framework-neutral installer's (what the
 * Pulumi component applies) by exactly the differences named in test/support/kplus-differences.ts,
 * field by field, and a cdk8s user shapes them with the cdk8s-plus API.
 */
import { describe, expect, it } from '@jest/globals';
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ExporterSetController, type ExporterSetControllerProps } from '../../lib/cdk8s';
import { buildExporterSetController } from '../../lib/manifests';
import {
  CDK8S_PLUS_DIFFERENCES,
  fieldDifferences,
  namedFields,
  withCdk8sPlusSettings,
} from '../support/kplus-differences';
import { restrictedViolations } from '../security/pod-security';
import { findObject, synth, testChart } from '../support/synth';

const SHAPES: [string, ExporterSetControllerProps][] = [
  ['the defaults', {}],
  ['watched namespaces', { namespace: 'lab', watchNamespaces: ['team-a', 'team-b'] }],
  [
    'two provisioners, replicas, a lifecycle provisioner',
    { provisioners: ['qemu.jumpstarter.dev', 'qemu-ssh.jumpstarter.dev'], replicas: 2 },
  ],
  [
    'a custom image, sizes and flags',
    {
      image: 'registry.lab/controller:dev',
      imagePullPolicy: 'Always',
      resources: { requests: { cpu: '0.25', memory: '1Gi' }, limits: { memory: '1500M' } },
      leaderElect: false,
      logLevel: 'debug',
      maxBurst: 10,
      workers: 8,
    },
  ],
  [
    'the ops pack and both CRD sets',
    {
      installJumpstarterCrds: true,
      opsPack: { serviceMonitor: true, prometheusRule: true, grafanaDashboard: true },
    },
  ],
];

describe('ExporterSetController with cdk8s-plus-28', () => {
  describe.each(SHAPES)('%s', (_what, props) => {
    const neutral = buildExporterSetController(props) as Record<string, any>[];
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', props);
    const objects = synth(chart);

    it('writes the same objects in the same order', () => {
      expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual(
        neutral.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`),
      );
    });

    it('differs from the neutral installer only in the named fields', () => {
      expect(namedFields(neutral).length).toBeGreaterThan(10);
      expect(fieldDifferences(neutral, objects).sort()).toEqual(namedFields(neutral).sort());
    });

    it('differs by the named values', () => {
      expect(objects).toEqual(withCdk8sPlusSettings(neutral));
    });

    it('keeps every Deployment "restricted"', () => {
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        expect([d.metadata.name, restrictedViolations((d as any).spec.template)]).toEqual([
          d.metadata.name,
          [],
        ]);
      }
    });
  });

  it('names each difference with its reason, and only safer settings, Kubernetes defaults and its own label', () => {
    expect(CDK8S_PLUS_DIFFERENCES.map((d) => `${d.group}: ${d.name}`)).toEqual([
      'safer: the ServiceAccount does not mount its token by default',
      "safer: the controller's Pods mount their token",
      'safer: the container is not privileged',
      "safer: the Pod does not use the node's network",
      "cdk8s-plus: the Pod template carries cdk8s-plus's address label",
      'kubernetes-default: minReadySeconds is 0',
      'kubernetes-default: progressDeadlineSeconds is 600',
      'kubernetes-default: the rollout strategy is RollingUpdate with 25% surge and 25% unavailable',
      'kubernetes-default: restartPolicy is Always',
      'kubernetes-default: dnsPolicy is ClusterFirst',
      'kubernetes-default: setHostnameAsFQDN is false',
      'kubernetes-default: fsGroupChangePolicy is Always',
      'kubernetes-default: a ClusterRole rule lists no resource names',
      'kubernetes-default: a ServiceAccount subject names the core API group',
    ]);
    for (const d of CDK8S_PLUS_DIFFERENCES) expect(d.why.length).toBeGreaterThan(20);
  });

  it('keeps the service-account token for the controller: the account does not mount it, its Pods do', () => {
    const chart = testChart();
    const controller = new ExporterSetController(chart, 'Controller');
    expect(controller.serviceAccount.automountToken).toBe(false);
    expect(controller.deployment.automountServiceAccountToken).toBe(true);
    const objects = synth(chart);
    const pod = (findObject(objects, 'Deployment', 'exporter-set-controller-qemu') as any).spec.template.spec;
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(pod.serviceAccountName).toBe('exporter-set-controller');
  });

  it('exposes the cdk8s-plus objects: ServiceAccount, roles, leader election, Deployments', () => {
    const chart = testChart();
    const namespaced = new ExporterSetController(chart, 'Namespaced', {
      namespace: 'lab',
      watchNamespaces: ['team-a', 'team-b'],
      provisioners: ['qemu.jumpstarter.dev', 'android.jumpstarter.dev'],
    });
    expect(namespaced.serviceAccount).toBeInstanceOf(kplus.ServiceAccount);
    expect(namespaced.serviceAccount.name).toBe('exporter-set-controller');
    expect(namespaced.clusterRole).toBeUndefined();
    expect(namespaced.roles.map((r) => `${r.metadata.namespace}/${r.name}`)).toEqual([
      'team-a/exporter-set-controller',
      'team-b/exporter-set-controller',
    ]);
    expect(namespaced.leaderElectionRole.name).toBe('exporter-set-controller-leader-election');
    expect(namespaced.deployments.map((d) => d.name)).toEqual([
      'exporter-set-controller-qemu',
      'exporter-set-controller-android',
    ]);
    expect(namespaced.deploymentFor('android.jumpstarter.dev')).toBe(namespaced.deployments[1]);
    expect(() => namespaced.deployment).toThrow(
      'test/Namespaced: this controller runs 2 Deployments, one per provisioner; pick one with deploymentFor(provisioner) or go through deployments',
    );
    expect(() => namespaced.deploymentFor('corellium.jumpstarter.dev')).toThrow(
      'test/Namespaced: no Deployment runs provisioner "corellium.jumpstarter.dev"; add it to the provisioners prop',
    );

    const clusterWide = new ExporterSetController(testChart(), 'ClusterWide');
    expect(clusterWide.clusterRole).toBeInstanceOf(kplus.ClusterRole);
    expect(clusterWide.roles).toEqual([]);
    expect(clusterWide.deployment).toBeInstanceOf(kplus.Deployment);
    expect(clusterWide.apiObjects.map((o) => ApiObject.isConstruct(o) && o.kind)).toContain('Deployment');
  });

  it('lets a cdk8s user shape the Deployment with the cdk8s-plus API: env, scheduling, a NetworkPolicy for metrics', () => {
    const chart = testChart();
    const controller = new ExporterSetController(chart, 'Controller', { namespace: 'jumpstarter' });
    const deployment = controller.deployment;
    deployment.containers[0].env.addVariable('HTTPS_PROXY', kplus.EnvValue.fromValue('http://proxy:3128'));
    deployment.scheduling.attract(kplus.Node.labeled(kplus.NodeLabelQuery.is('node-role/infra', 'true')));
    deployment.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('infra')));
    const scrapers = kplus.Pods.select(chart, 'Prometheus', {
      labels: { 'app.kubernetes.io/name': 'prometheus' },
      namespaces: kplus.Namespaces.select(chart, 'Monitoring', { names: ['monitoring'] }),
    });
    new kplus.NetworkPolicy(chart, 'Metrics', {
      metadata: { name: 'exporter-set-controller-metrics', namespace: 'jumpstarter' },
      selector: deployment,
      ingress: {
        default: kplus.NetworkPolicyTrafficDefault.DENY,
        rules: [{ peer: scrapers, ports: [kplus.NetworkPolicyPort.tcp(8080)] }],
      },
    });

    const objects = synth(chart);
    const d = findObject(objects, 'Deployment', 'exporter-set-controller-qemu') as any;
    const pod = d.spec.template.spec;
    expect(pod.containers[0].env.at(-1)).toEqual({ name: 'HTTPS_PROXY', value: 'http://proxy:3128' });
    expect(
      pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([{ matchExpressions: [{ key: 'node-role/infra', operator: 'In', values: ['true'] }] }]);
    expect(pod.tolerations).toEqual([{ key: 'infra', operator: 'Exists' }]);
    // Everything else is as before.
    expect(pod.containers[0].resources).toEqual({
      requests: { cpu: '50m', memory: '64Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
    });

    const policy = findObject(objects, 'NetworkPolicy', 'exporter-set-controller-metrics') as any;
    const address = d.spec.template.metadata.labels['cdk8s.io/metadata.addr'];
    expect(policy.spec.podSelector).toEqual({ matchLabels: { 'cdk8s.io/metadata.addr': address } });
    expect(policy.spec.ingress).toEqual([
      {
        from: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
          },
        ],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ]);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
  });
});
