import { describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import {
  exporterCrd,
  exporterOperationCrd,
  exporterSetCrd,
  leaseCrd,
  virtualTargetClassCrd,
} from '../../lib/crds';
import { buildExporterSetController } from '../../lib/manifests';
import { MockStack, valueOf, type RegisteredResource } from './support/mock-stack';

const stack = await MockStack.start();
const { ExporterSetController } = await import('../../lib/pulumi');

const TYPE = 'virtual-exporters:index:ExporterSetController';

function children(name: string): RegisteredResource[] {
  return stack.childrenOf(stack.one(TYPE, name));
}

/** The component's objects in the order it made them, which is the installer's apply order. */
async function applied(ctl: InstanceType<typeof ExporterSetController>): Promise<RegisteredResource[]> {
  await stack.settle();
  return Promise.all(ctl.resources.map((r) => stack.of(r)));
}

describe('ExporterSetController component', () => {
  it('registers one typed Kubernetes resource per installer object, named after the component', async () => {
    const ctl = new ExporterSetController('ctl', { namespace: 'lab', watchNamespaces: ['team-a', 'team-b'] });
    const objects = await applied(ctl);
    // Every child is one of these, and nothing else is.
    expect(
      children('ctl')
        .map((r) => r.urn)
        .sort(),
    ).toEqual(objects.map((r) => r.urn).sort());
    expect(objects.map((r) => `${r.type}::${r.name}`)).toEqual([
      'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition::ctl-virtualtargetclasses.virtualtarget.jumpstarter.dev',
      'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition::ctl-exportersets.virtualtarget.jumpstarter.dev',
      'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition::ctl-exporteroperations.virtualtarget.jumpstarter.dev',
      'kubernetes:core/v1:ServiceAccount::ctl-exporter-set-controller',
      'kubernetes:rbac.authorization.k8s.io/v1:Role::ctl-exporter-set-controller-team-a',
      'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding::ctl-exporter-set-controller-team-a',
      'kubernetes:rbac.authorization.k8s.io/v1:Role::ctl-exporter-set-controller-team-b',
      'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding::ctl-exporter-set-controller-team-b',
      'kubernetes:rbac.authorization.k8s.io/v1:Role::ctl-exporter-set-controller-leader-election',
      'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding::ctl-exporter-set-controller-leader-election',
      'kubernetes:apps/v1:Deployment::ctl-exporter-set-controller-qemu',
      'kubernetes:core/v1:Service::ctl-exporter-set-controller-metrics',
    ]);
  });

  it('applies exactly the objects the installer builds: CRDs, RBAC rules, Deployment args', async () => {
    const args = {
      namespace: 'lab',
      watchNamespaces: ['team-a'],
      image: 'registry.example.com/esc:1.2.3',
      logLevel: 'debug' as const,
      maxBurst: 20,
      workers: 4,
    };
    const objects = (await applied(new ExporterSetController('ctl-exact', args))).map((r) => r.inputs);
    expect(objects).toEqual(buildExporterSetController(args));
    expect(objects.slice(0, 3)).toEqual([virtualTargetClassCrd, exporterSetCrd, exporterOperationCrd]);

    const role = objects.find((o) => o.kind === 'Role' && o.metadata.namespace === 'team-a')!;
    expect(role.rules).toContainEqual({
      apiGroups: ['virtualtarget.jumpstarter.dev'],
      resources: ['exportersets/status'],
      verbs: ['patch'],
    });
    for (const rule of role.rules) expect([...rule.verbs, ...rule.resources]).not.toContain('*');
    const binding = objects.find((o) => o.kind === 'RoleBinding' && o.metadata.namespace === 'team-a')!;
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'exporter-set-controller', namespace: 'lab' },
    ]);
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    expect(deployment.spec.template.spec.containers[0].image).toBe('registry.example.com/esc:1.2.3');
    expect(deployment.spec.template.spec.containers[0].args).toEqual([
      '--provisioner=qemu.jumpstarter.dev',
      '--leader-elect',
      '--health-probe-bind-address=:8081',
      '--metrics-bind-address=:8080',
      '--log-level=debug',
      '--namespace=team-a',
      '--max-burst=20',
      '--workers=4',
    ]);
  });

  it('starts the controller only after its CRDs and RBAC, and passes its own dependsOn to every object', async () => {
    const ns = new ExporterSetController('ctl-first', {
      installCrds: false,
      provisioners: ['qemu.jumpstarter.dev'],
    });
    const ctl = new ExporterSetController('ctl-deps', { namespace: 'lab' }, { dependsOn: ns.deployments });
    await stack.settle();
    const upstream = children('ctl-first').find((r) => r.type === 'kubernetes:apps/v1:Deployment')!.urn;
    const all = children('ctl-deps');
    const deployment = all.find((r) => r.type === 'kubernetes:apps/v1:Deployment')!;
    const before = all.filter((r) => !/:(Deployment|Service)$/.test(r.type)).map((r) => r.urn);
    expect([...deployment.dependsOn].sort()).toEqual([upstream, ...before].sort());
    for (const other of all.filter((r) => r !== deployment)) expect(other.dependsOn).toEqual([upstream]);
    expect(ctl.crds).toHaveLength(3);
    expect(ctl.deployments).toHaveLength(1);
    expect(ctl.resources).toHaveLength(all.length);
  });

  it('resolves Output args, keeping the object list and names', async () => {
    const ctl = new ExporterSetController('ctl-outputs', {
      namespace: pulumi.output('lab'),
      image: Promise.resolve('registry.example.com/esc:2'),
      replicas: pulumi.output(2),
      installCrds: false,
      installJumpstarterCrds: true,
    });
    const objects = await applied(ctl);
    expect(objects.map((r) => r.inputs)).toEqual(
      buildExporterSetController({
        namespace: 'lab',
        image: 'registry.example.com/esc:2',
        replicas: 2,
        installCrds: false,
        installJumpstarterCrds: true,
      }),
    );
    expect(objects.slice(0, 2).map((r) => r.inputs)).toEqual([exporterCrd, leaseCrd]);
    expect(await valueOf(ctl.namespace)).toBe('lab');
  });

  it('rejects plain args at once with the cdk8s message', () => {
    expect(() => new ExporterSetController('ctl-bad', { replicas: 2, leaderElect: false })).toThrow(
      '[virtual-exporters:index:ExporterSetController::ctl-bad] invalid ExporterSetController: replicas=2: more than one replica needs leaderElect: true, or the replicas would reconcile the same sets at once',
    );
  });

  it('checks the args that decide its resources at once even when others are Outputs', () => {
    expect(
      () =>
        new ExporterSetController('ctl-twice', {
          namespace: pulumi.output('lab'),
          provisioners: ['qemu.jumpstarter.dev', 'qemu.jumpstarter.dev'],
        }),
    ).toThrow(
      '[virtual-exporters:index:ExporterSetController::ctl-twice] invalid ExporterSetController: provisioners[1]="qemu.jumpstarter.dev": is listed twice; each provisioner runs once',
    );
  });
});
