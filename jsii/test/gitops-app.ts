// examples/gitops written against the jsii facade, as a Python user writes it (examples/gitops-python
// is the same app in Python): the facade test checks both synthesize what the TypeScript app does.
import { App, Chart, Duration, Size } from 'cdk8s';
import type { Construct } from 'constructs';
import {
  BindingMode,
  ExporterSet,
  ExporterSetController,
  QemuArch,
  QemuPool,
  ReclaimPolicy,
  RecycleStrategy,
  TaintEffect,
  TolerationOperator,
  VirtualTargetClass,
} from '../src';

const NAMESPACE = 'jumpstarter';
const PROVISIONERS = [
  'qemu.jumpstarter.dev',
  'corellium.jumpstarter.dev',
  'android.jumpstarter.dev',
  'qemu-baremetal.jumpstarter.dev',
];

class ControllerChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ExporterSetController(this, 'ExporterSetController', {
      namespace: NAMESPACE,
      provisioners: PROVISIONERS,
      watchNamespaces: [NAMESPACE],
    });
  }
}

class PoolsChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: NAMESPACE });
    const rpi4 = new VirtualTargetClass(this, 'QemuRpi4', {
      metadata: { name: 'qemu-rpi4' },
      provisioner: 'qemu.jumpstarter.dev',
      bindingMode: BindingMode.IMMEDIATE,
      reclaimPolicy: ReclaimPolicy.DELETE,
      scheduling: {
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        tolerations: [
          {
            key: 'jumpstarter.dev/kvm',
            operator: TolerationOperator.EXISTS,
            effect: TaintEffect.NO_SCHEDULE,
          },
        ],
        resources: { limits: { 'devices.kubevirt.io/kvm': '1' } },
      },
      parameters: {
        arch: 'aarch64',
        machineType: 'virt',
        firmware: {
          url: 'registry.example.com/firmware/rpi4:latest',
          digest: 'sha256:5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef',
        },
        resources: { cpu: 4, memory: '4Gi', storage: '16Gi' },
      },
    });
    new ExporterSet(this, 'Rpi4Virtual', {
      metadata: { name: 'rpi4-virtual' },
      virtualTargetClass: rpi4,
      minReplicas: 0,
      maxReplicas: 20,
      minAvailableReplicas: 2,
      scaleDownCooldown: Duration.minutes(5),
      recycleStrategy: RecycleStrategy.EXIT_AND_REPLACE,
      parameters: { resources: { memory: '8Gi' } },
      template: {
        labels: { board: 'rpi4', arch: 'aarch64', virtual: 'true' },
        // Jumpstarter's QEMU driver brings power, console and flasher; the network driver reaches the
        // guest's SSH through the driver's port forward (127.0.0.1:2222 → 22).
        drivers: [
          { type: 'jumpstarter_driver_qemu.driver.Qemu' },
          { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { host: '127.0.0.1', port: 2222 } },
        ],
      },
    });
    new QemuPool(this, 'X8664Ci', {
      metadata: { name: 'x86-64-ci' },
      arch: QemuArch.X86_64,
      machineType: 'q35',
      cpu: 2,
      memory: Size.gibibytes(2),
      storage: Size.gibibytes(20),
      labels: { board: 'x86-64-virtual', arch: 'x86_64', virtual: 'true' },
      minAvailableReplicas: 3,
      maxReplicas: 10,
      scaleDownCooldown: Duration.minutes(10),
    });
    new VirtualTargetClass(this, 'CorelliumKronos', {
      metadata: { name: 'corellium-kronos' },
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretName: 'corellium-creds',
      bindingMode: BindingMode.WAIT_FOR_FIRST_CONSUMER,
      reclaimPolicy: ReclaimPolicy.DELETE,
      parameters: {
        api: { host: 'app.corellium.com', projectId: '778f00af-5e9b-40e6-8e7f-c4f14b632e9c' },
        device: { flavor: 'kronos', os: '1.1.1', build: 'Critical Application Monitor (Baremetal)' },
      },
    });
    const pixel7 = new VirtualTargetClass(this, 'AndroidPixel7', {
      metadata: { name: 'android-pixel7' },
      provisioner: 'android.jumpstarter.dev',
    });
    new ExporterSet(this, 'Pixel7Emulator', {
      metadata: { name: 'pixel7-emulator' },
      virtualTargetClass: pixel7,
      minReplicas: 0,
      maxReplicas: 10,
      minAvailableReplicas: 0,
      template: {
        labels: { device: 'pixel7', os: 'android', 'api-level': '34', virtual: 'true' },
        // Jumpstarter's emulator driver brings ADB and power; the provisioner fills in the AVD.
        drivers: [{ type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator' }],
      },
    });
    const sa8295 = new VirtualTargetClass(this, 'QcomSa8295Baremetal', {
      metadata: { name: 'qcom-sa8295-baremetal' },
      provisioner: 'qemu-baremetal.jumpstarter.dev',
      credentialsSecretName: 'automotive-lab-ssh',
      bindingMode: BindingMode.IMMEDIATE,
      parameters: {
        hosts: [
          { name: 'bench-01.automotive.example.com', arch: 'aarch64', slots: 2 },
          { name: 'bench-02.automotive.example.com', arch: 'aarch64', slots: 2 },
        ],
        runtime: { binary: '/usr/bin/qemu-system-aarch64', kvm: true },
        board: { soc: 'sa8295' },
      },
    });
    new ExporterSet(this, 'QcomSa8295Hifi', {
      metadata: { name: 'qcom-sa8295-hifi' },
      virtualTargetClass: sa8295,
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: 1,
      parameters: { board: { fidelity: 'high' } },
      template: {
        labels: { board: 'sa8295', fidelity: 'high', virtual: 'true' },
        // Jumpstarter's QEMU driver brings power, console and flasher; the network driver reaches the
        // guest's SSH through the driver's port forward (127.0.0.1:2222 → 22).
        drivers: [
          { type: 'jumpstarter_driver_qemu.driver.Qemu' },
          { type: 'jumpstarter_driver_network.driver.TcpNetwork', config: { host: '127.0.0.1', port: 2222 } },
        ],
      },
    });
  }
}

/** The facade's GitOps app; tests build it in memory. */
export function buildFacadeGitopsApp(app: App = new App()): App {
  new ControllerChart(app, 'controller');
  new PoolsChart(app, 'pools');
  return app;
}
