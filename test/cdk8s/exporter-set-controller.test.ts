import { describe, expect, it } from '@jest/globals';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service, ServiceAccount } from 'kubernetes-models/v1';
import {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
} from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ExporterSetController } from '../../lib/cdk8s';
import {
  exporterOperationCrd,
  exporterSetCrd,
  virtualTargetClassCrd,
  exporterCrd,
  leaseCrd,
} from '../../lib/crds';
import { findObject, synth, testChart } from '../support/synth';

const RULES = [
  {
    apiGroups: ['virtualtarget.jumpstarter.dev'],
    resources: ['exportersets'],
    verbs: ['list', 'watch', 'patch'],
  },
  { apiGroups: ['virtualtarget.jumpstarter.dev'], resources: ['exportersets/status'], verbs: ['patch'] },
  { apiGroups: ['virtualtarget.jumpstarter.dev'], resources: ['exportersets/finalizers'], verbs: ['update'] },
  {
    apiGroups: ['virtualtarget.jumpstarter.dev'],
    resources: ['virtualtargetclasses'],
    verbs: ['list', 'watch'],
  },
  {
    apiGroups: ['jumpstarter.dev'],
    resources: ['exporters'],
    verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
  },
  { apiGroups: ['jumpstarter.dev'], resources: ['exporters/finalizers'], verbs: ['update'] },
  { apiGroups: ['jumpstarter.dev'], resources: ['leases'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'create', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch', 'create', 'patch'] },
  // Recorded revisions: created and pruned, never updated (they are immutable).
  { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['list', 'watch', 'create', 'delete'] },
  // The class's CA bundle (get); each set's demand history <set>-demand (read once, created, patched).
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  {
    apiGroups: ['virtualtarget.jumpstarter.dev'],
    resources: ['exporteroperations'],
    verbs: ['list', 'watch', 'create', 'delete'],
  },
  {
    apiGroups: ['virtualtarget.jumpstarter.dev'],
    resources: ['exporteroperations/status'],
    verbs: ['patch'],
  },
];

const LEADER_ELECTION_RULES = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
];

describe('ExporterSetController', () => {
  it('installs CRDs, RBAC for each watched namespace, leader election, a Deployment and a metrics Service', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', {
      namespace: 'lab',
      watchNamespaces: ['team-a', 'team-b'],
    });
    const objects = synth(chart);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)).toEqual([
      'CustomResourceDefinition//virtualtargetclasses.virtualtarget.jumpstarter.dev',
      'CustomResourceDefinition//exportersets.virtualtarget.jumpstarter.dev',
      'CustomResourceDefinition//exporteroperations.virtualtarget.jumpstarter.dev',
      'ServiceAccount/lab/exporter-set-controller',
      'Role/team-a/exporter-set-controller',
      'RoleBinding/team-a/exporter-set-controller',
      'Role/team-b/exporter-set-controller',
      'RoleBinding/team-b/exporter-set-controller',
      'Role/lab/exporter-set-controller-leader-election',
      'RoleBinding/lab/exporter-set-controller-leader-election',
      'Deployment/lab/exporter-set-controller-qemu',
      'Service/lab/exporter-set-controller-metrics',
    ]);
  });

  it('installs exactly our CRDs as defined in lib/crds', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller');
    const crds = synth(chart).filter((o) => o.kind === 'CustomResourceDefinition');
    expect(crds).toEqual([virtualTargetClassCrd, exporterSetCrd, exporterOperationCrd]);
  });

  it('lists the Role rules exactly: only the verbs the controller uses, no wildcards', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', { namespace: 'lab', watchNamespaces: ['team-a'] });
    const objects = synth(chart);
    const role = findObject(
      objects.filter((o) => o.metadata.namespace === 'team-a'),
      'Role',
      'exporter-set-controller',
    );
    expect(role.rules).toEqual(RULES);
    const leader = findObject(objects, 'Role', 'exporter-set-controller-leader-election');
    expect(leader.metadata.namespace).toBe('lab');
    expect(leader.rules).toEqual(LEADER_ELECTION_RULES);
    for (const rule of [...RULES, ...LEADER_ELECTION_RULES]) {
      expect(rule.verbs).not.toContain('*');
      expect(rule.resources).not.toContain('*');
    }
    const binding = findObject(
      objects.filter((o) => o.metadata.namespace === 'team-a'),
      'RoleBinding',
      'exporter-set-controller',
    );
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'exporter-set-controller',
    });
    // cdk8s-plus names the core API group of a ServiceAccount subject (test/support/kplus-differences.ts).
    expect(binding.subjects).toEqual([
      { apiGroup: '', kind: 'ServiceAccount', name: 'exporter-set-controller', namespace: 'lab' },
    ]);
  });

  it('uses a ClusterRole without a namespace when watching all namespaces', () => {
    const chart = testChart('ignored-for-cluster-scope');
    new ExporterSetController(chart, 'Controller', { namespace: 'lab' });
    const objects = synth(chart);
    const role = findObject(objects, 'ClusterRole', 'exporter-set-controller');
    // cdk8s-plus writes an empty resourceNames list on ClusterRole rules (test/support/kplus-differences.ts).
    expect(role.rules).toEqual(RULES.map((rule) => ({ ...rule, resourceNames: [] })));
    expect(role.metadata.namespace).toBeUndefined();
    const binding = findObject(objects, 'ClusterRoleBinding', 'exporter-set-controller');
    expect(binding.metadata.namespace).toBeUndefined();
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'exporter-set-controller',
    });
    expect(objects.filter((o) => o.kind === 'Role').map((o) => o.metadata.name)).toEqual([
      'exporter-set-controller-leader-election',
    ]);
    for (const crd of objects.filter((o) => o.kind === 'CustomResourceDefinition')) {
      expect(crd.metadata.namespace).toBeUndefined();
    }
  });

  it('runs one Deployment per provisioner with its flags, probes and resources', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', {
      namespace: 'lab',
      watchNamespaces: ['team-a'],
      image: 'registry.example.com/esc:1.2.3',
      logLevel: 'debug',
      maxBurst: 20,
      workers: 4,
    });
    const deployment = findObject(synth(chart), 'Deployment', 'exporter-set-controller-qemu') as any;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'exporter-set-controller',
      'app.kubernetes.io/instance': 'qemu',
    });
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
    expect(pod.serviceAccountName).toBe('exporter-set-controller');
    expect(container.image).toBe('registry.example.com/esc:1.2.3');
    expect(container.args).toEqual([
      '--provisioner=qemu.jumpstarter.dev',
      '--leader-elect',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=:8080',
      '--log-level=debug',
      '--namespace=team-a',
      '--max-burst=20',
      '--workers=4',
    ]);
    expect(container.env).toEqual([
      { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'NODE_OPTIONS', value: '--max-semi-space-size=2' },
      { name: 'MALLOC_ARENA_MAX', value: '2' },
    ]);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    expect(container.ports).toEqual([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8081, protocol: 'TCP' },
    ]);
    expect(container.resources).toEqual({
      requests: { cpu: '50m', memory: '64Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
    });
  });

  it('meets the Pod Security "restricted" profile', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller');
    const pod = (findObject(synth(chart), 'Deployment', 'exporter-set-controller-qemu') as any).spec.template
      .spec;
    // cdk8s-plus adds fsGroupChangePolicy: Always and privileged: false (test/support/kplus-differences.ts).
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
      fsGroupChangePolicy: 'Always',
    });
    expect(pod.hostNetwork ?? false).toBe(false);
    expect(pod.volumes ?? []).toEqual([]);
    for (const c of pod.containers) {
      expect(c.securityContext).toEqual({
        runAsNonRoot: true,
        runAsUser: 65532,
        runAsGroup: 65532,
        allowPrivilegeEscalation: false,
        privileged: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
    }
  });

  it('omits the leader-elect flag when leader election is off and names other provisioners by their short name', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', { leaderElect: false });
    const deployment = findObject(synth(chart), 'Deployment', 'exporter-set-controller-qemu') as any;
    expect(deployment.spec.template.spec.containers[0].args).not.toContain('--leader-elect');
    expect(deployment.metadata.namespace).toBe('jumpstarter');
  });

  it('can skip our CRDs and add the Exporter and Lease CRDs for clusters without Jumpstarter', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', { installCrds: false, installJumpstarterCrds: true });
    const crds = synth(chart).filter((o) => o.kind === 'CustomResourceDefinition');
    expect(crds).toEqual([exporterCrd, leaseCrd]);
  });

  it('produces core objects the Kubernetes schemas accept', () => {
    const chart = testChart();
    new ExporterSetController(chart, 'Controller', { watchNamespaces: ['a'] });
    const kinds: Record<string, (o: any) => { validate(): void }> = {
      Deployment: (o) => new Deployment(o),
      Service: (o) => new Service(o),
      ServiceAccount: (o) => new ServiceAccount(o),
      Role: (o) => new Role(o),
      RoleBinding: (o) => new RoleBinding(o),
      ClusterRole: (o) => new ClusterRole(o),
      ClusterRoleBinding: (o) => new ClusterRoleBinding(o),
    };
    const all = synth(chart);
    const second = testChart();
    new ExporterSetController(second, 'All');
    for (const obj of [...all, ...synth(second)]) {
      const make = kinds[obj.kind];
      if (make) expect(() => make(obj).validate()).not.toThrow();
    }
  });

  describe('validation', () => {
    it.each([
      [
        { provisioners: ['ec2.jumpstarter.dev'] },
        '[test/C] invalid ExporterSetController: provisioners[0]="ec2.jumpstarter.dev": is not a provisioner the controller implements; use one of: android.jumpstarter.dev, corellium.jumpstarter.dev, qemu-baremetal.jumpstarter.dev, qemu-ssh.jumpstarter.dev, qemu.jumpstarter.dev',
      ],
      [
        { provisioners: [] },
        '[test/C] invalid ExporterSetController: provisioners=[]: must name at least one provisioner; each gets its own controller Deployment',
      ],
      [
        { provisioners: ['qemu.jumpstarter.dev', 'qemu.jumpstarter.dev'] },
        '[test/C] invalid ExporterSetController: provisioners[1]="qemu.jumpstarter.dev": is listed twice; each provisioner runs once',
      ],
      [
        { replicas: 2, leaderElect: false },
        '[test/C] invalid ExporterSetController: replicas=2: more than one replica needs leaderElect: true, or the replicas would reconcile the same sets at once',
      ],
      [
        { replicas: 0 },
        '[test/C] invalid ExporterSetController: replicas=0: must be a whole number of at least 1',
      ],
      [
        { maxBurst: 1.5 },
        '[test/C] invalid ExporterSetController: maxBurst=1.5: must be a whole number of at least 1',
      ],
      [
        { workers: 0 },
        '[test/C] invalid ExporterSetController: workers=0: must be a whole number of at least 1',
      ],
      [
        { watchNamespaces: ['a', 'a'] },
        '[test/C] invalid ExporterSetController: watchNamespaces[1]="a": is listed twice',
      ],
    ])('rejects %j', (props, message) => {
      expect(() => new ExporterSetController(testChart(), 'C', props)).toThrow(message);
    });

    it('rejects a namespace that is not a DNS label', () => {
      expect(() => new ExporterSetController(testChart(), 'C', { namespace: 'Lab_1' })).toThrow(
        /^\[test\/C\] invalid ExporterSetController: namespace="Lab_1": namespace /,
      );
    });
  });
});
