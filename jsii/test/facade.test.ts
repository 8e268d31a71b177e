// The jsii facade (jsii/src) against the TypeScript constructs it wraps: same manifests, same errors,
// and a prop for every field of the framework-neutral inputs. Needs no Python (npm run test:python
// runs the Python side).
import { describe, expect, it } from '@jest/globals';
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { buildGitopsApp } from '../../examples/gitops/app';
import * as lib from '../../lib/cdk8s';
import * as facade from '../src';
import { buildFacadeGitopsApp } from './gitops-app';
import { missingFacadeFields, PROP_PAIRS, programFor } from './prop-coverage';

function testApp(): App {
  return new App({ outdir: '/tmp/virtual-exporters-tests-unused-outdir' });
}

describe('jsii facade › manifests', () => {
  it('synthesizes the GitOps example to the YAML of the TypeScript app, byte for byte', () => {
    const typescript = buildGitopsApp(testApp()).synthYaml();
    const viaFacade = buildFacadeGitopsApp(testApp()).synthYaml();
    expect(viaFacade.length).toBeGreaterThan(10_000);
    expect(viaFacade).toBe(typescript);
  });

  it('builds each library construct as its child Default, so generated names do not change', () => {
    const chart = new Chart(testApp(), 'c', { namespace: 'lab' });
    const cls = new facade.VirtualTargetClass(chart, 'Unnamed', { provisioner: 'qemu.jumpstarter.dev' });
    expect(cls.node.findChild('Default')).toBeInstanceOf(lib.VirtualTargetClass);
    const plain = new lib.VirtualTargetClass(new Chart(testApp(), 'c', { namespace: 'lab' }), 'Unnamed', {
      provisioner: 'qemu.jumpstarter.dev',
    });
    expect(cls.name).toBe(plain.name);
    expect(cls.name).toMatch(/^c-unnamed-[0-9a-f]{8}$/);
  });

  it("gives the installer's cdk8s-plus objects: those of the library construct, shaped the same way", () => {
    const install = (usingFacade: boolean) => {
      const chart = new Chart(testApp(), 'install');
      const props = { namespace: 'jumpstarter', watchNamespaces: ['lab'] };
      const controller = usingFacade
        ? new facade.ExporterSetController(chart, 'Controller', props)
        : new lib.ExporterSetController(chart, 'Controller', props);
      controller.deployment.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('infra')));
      new kplus.NetworkPolicy(chart, 'Metrics', {
        selector: controller.deployment,
        ingress: {
          rules: [{ peer: kplus.Pods.all(chart, 'Any'), ports: [kplus.NetworkPolicyPort.tcp(8080)] }],
        },
      });
      return { chart, controller };
    };
    const { chart, controller } = install(true);
    const inner = controller.node.findChild('Default') as lib.ExporterSetController;
    expect(controller.deployment).toBeInstanceOf(kplus.Deployment);
    expect(controller.deployment).toBe(inner.deployment);
    expect(controller.deploymentFor('qemu.jumpstarter.dev')).toBe(inner.deployment);
    expect(controller.deployments).toEqual([...inner.deployments]);
    expect(controller.serviceAccount).toBe(inner.serviceAccount);
    expect(controller.clusterRole).toBeUndefined();
    expect(controller.roles).toEqual([...inner.roles]);
    expect(controller.roles[0]).toBeInstanceOf(kplus.Role);
    expect(controller.leaderElectionRole).toBe(inner.leaderElectionRole);
    // The same YAML as the library construct at the same path, cdk8s-plus's Pod address label included.
    expect(Testing.synth(chart)).toEqual(Testing.synth(install(false).chart));
  });

  it('passes a QemuPool with every option to the library unchanged but for the jsii types', () => {
    const build = (usingFacade: boolean) => {
      const chart = new Chart(testApp(), 'pools', { namespace: 'lab' });
      const common = {
        metadata: { name: 'full', labels: { team: 'os' } },
        className: 'full-class',
        machineType: 'virt',
        cpu: 4,
        memory: Size.gibibytes(8),
        storage: Size.gibibytes(32),
        firmware: { url: 'registry.example.com/fw:1', digest: `sha256:${'a'.repeat(64)}` },
        kvm: true,
        extraParameters: { bios: 'uefi' },
        labels: { board: 'full' },
        annotations: { note: 'all options' },
        drivers: [{ name: 'vm', type: 'jumpstarter_driver_qemu.driver.Qemu', config: { smp: 4 } }],
        minReplicas: 1,
        maxReplicas: 9,
        minAvailableReplicas: 2,
        scaleDownCooldown: Duration.seconds(90),
        paused: false,
        recycleRequestedAt: new Date('2026-11-01T08:00:00Z'),
        revisionHistoryLimit: 3,
        pinnedRevision: 'full-5d8f7c',
        selector: { matchLabels: { board: 'full' } },
        scheduling: {
          nodeSelector: { 'kubernetes.io/arch': 'arm64' },
          tolerations: [{ key: 'kvm', operator: 'Exists', effect: 'NoSchedule' }],
          resources: { limits: { 'devices.kubevirt.io/kvm': '1' }, requests: { cpu: '2' } },
          priorityClassName: 'lab',
        },
      } as const;
      if (usingFacade) {
        new facade.QemuPool(chart, 'Full', {
          ...common,
          scheduling: {
            ...common.scheduling,
            tolerations: [
              {
                key: 'kvm',
                operator: facade.TolerationOperator.EXISTS,
                effect: facade.TaintEffect.NO_SCHEDULE,
              },
            ],
          },
          drivers: [...common.drivers],
          arch: facade.QemuArch.AARCH64,
          bindingMode: facade.BindingMode.WAIT_FOR_FIRST_CONSUMER,
          reclaimPolicy: facade.ReclaimPolicy.RETAIN,
          recycleStrategy: facade.RecycleStrategy.IN_PLACE_REUSE,
          scaleInStrategy: { basePolicy: facade.ScaleInBasePolicy.OLDEST },
          updateStrategy: {
            type: facade.UpdateStrategyType.PROACTIVE,
            maxSurge: facade.IntOrPercent.percent(50),
            maxUnavailable: facade.IntOrPercent.count(0),
          },
          forecast: { mode: facade.ForecastMode.FORECAST_ONLY, maxExtra: 2 },
          images: {
            runtime: { image: 'quay.example.com/qemu:1', imagePullPolicy: facade.ImagePullPolicy.ALWAYS },
          },
        });
      } else {
        new lib.QemuPool(chart, 'Full', {
          ...common,
          scheduling: { ...common.scheduling, tolerations: [...common.scheduling.tolerations] },
          drivers: [...common.drivers],
          arch: 'aarch64',
          bindingMode: 'WaitForFirstConsumer',
          reclaimPolicy: 'Retain',
          recycleStrategy: 'InPlaceReuse',
          scaleInStrategy: { basePolicy: 'Oldest' },
          updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 0 },
          forecast: { mode: 'ForecastOnly', maxExtra: 2 },
          images: { runtime: { image: 'quay.example.com/qemu:1', imagePullPolicy: 'Always' } },
        });
      }
      return Testing.synth(chart);
    };
    const viaFacade = build(true);
    expect(viaFacade).toEqual(build(false));
    const set = viaFacade.find((o) => o.kind === 'ExporterSet');
    expect(set.spec.updateStrategy).toEqual({ type: 'Proactive', maxSurge: '50%', maxUnavailable: 0 });
    expect(set.spec.scaleDownCooldown).toBe('1m30s');
  });

  it('writes the ops pack scrape interval as a Prometheus duration', () => {
    const chart = new Chart(testApp(), 'install');
    new facade.ExporterSetController(chart, 'Controller', {
      opsPack: { serviceMonitor: true, scrapeInterval: Duration.minutes(1) },
    });
    const monitor = Testing.synth(chart).find((o) => o.kind === 'ServiceMonitor');
    expect(monitor.spec.endpoints[0].interval).toBe('60s');
  });

  it('writes a custom operation as its name', () => {
    const chart = new Chart(testApp(), 'ops', { namespace: 'lab' });
    new facade.ExporterOperation(chart, 'Reflash', {
      operation: facade.Operation.custom('qemu.jumpstarter.dev/Reflash'),
      exporterName: 'rpi4-virtual-7',
    });
    new facade.ExporterOperation(chart, 'Recycle', {
      operation: facade.Operation.RECYCLE,
      exporterName: 'x-1',
    });
    expect(Testing.synth(chart).map((o) => o.spec.operation)).toEqual([
      'qemu.jumpstarter.dev/Reflash',
      'Recycle',
    ]);
  });
});

describe('jsii facade › errors', () => {
  it('gives the sentence of the TypeScript construct: its path, the prop, the value and the rule', () => {
    const message = (build: (chart: Chart) => void) => {
      try {
        build(new Chart(testApp(), 'pools', { namespace: 'lab' }));
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('expected the construct to refuse its props');
    };
    const typescript = message(
      (chart) => new lib.QemuPool(chart, 'Bad', { labels: { board: 'x' }, maxReplicas: -1 }),
    );
    const viaFacade = message(
      (chart) => new facade.QemuPool(chart, 'Bad', { labels: { board: 'x' }, maxReplicas: -1 }),
    );
    expect(typescript).toBe(
      '[pools/Bad] invalid QemuPool: maxReplicas=-1: must be greater than or equal to 0',
    );
    expect(viaFacade).toBe(typescript);
  });
});

describe('jsii facade › props', () => {
  const program = programFor();

  it('has a prop for every field of the framework-neutral inputs and of the cdk8s props, enums for their choices', () => {
    const missing = PROP_PAIRS.flatMap(([neutral, facadeType]) =>
      missingFacadeFields(program, neutral, facadeType),
    );
    expect(missing).toEqual([]);
  });

  it('notices a missing field, at any depth, and an enum that lacks a choice (the check can fail)', () => {
    expect(
      missingFacadeFields(
        program,
        { file: 'lib/manifests/exporter-set.ts', name: 'ExporterSetOptions' },
        { file: 'jsii/src/exporter-set.ts', name: 'PoolScalingOptions' },
      ),
    ).toEqual([
      'ExporterSetOptions.schedules: no PoolScalingOptions.schedules',
      'ExporterSetOptions.parameters: no PoolScalingOptions.parameters',
      'ExporterSetOptions.images: no PoolScalingOptions.images',
      'ExporterSetOptions.template: no PoolScalingOptions.template',
    ]);
    expect(
      missingFacadeFields(
        program,
        { file: 'lib/manifests/installer.ts', name: 'ExporterSetControllerInput' },
        { file: 'jsii/test/prop-coverage.ts', name: 'ShortControllerProps' },
      ),
    ).toEqual([
      'ExporterSetControllerInput.imagePullPolicy: ShortControllerProps.imagePullPolicy lacks "Always", "Never"',
      'ExporterSetControllerInput.resources.claims: no ShortControllerProps.resources.claims',
    ]);
  });
});
