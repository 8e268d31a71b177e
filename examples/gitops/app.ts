// A GitOps repository's cdk8s app: `npm run synth` writes dist/*.k8s.yaml for Argo CD or Flux.
// It holds the installer and the pools of JEP-0014 (read with our API group):
// - controller.k8s.yaml: the CRDs and the controller, one Deployment per provisioner in PROVISIONERS;
// - pools.k8s.yaml: the pools, every one served by one of those controllers.
import { App, Chart, Duration, Size } from 'cdk8s';
import type { Construct } from 'constructs';
import { ExporterSet, ExporterSetController, QemuPool, VirtualTargetClass } from 'virtual-exporters/cdk8s';

const NAMESPACE = 'jumpstarter';

/** The provisioners the installed controller runs: one Deployment each. */
export const PROVISIONERS = [
  'qemu.jumpstarter.dev',
  'corellium.jumpstarter.dev',
  'android.jumpstarter.dev',
  'qemu-baremetal.jumpstarter.dev',
];

/** The controller for the pools of PoolsChart, installed once per cluster. */
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

/** The pools of JEP-0014 (QEMU, Corellium, Android, SA8295 over SSH), plus one QemuPool showing the short form. */
class PoolsChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: NAMESPACE });

    // Raspberry Pi 4 on QEMU: a warm pool of 2, up to 20; the set doubles the class's memory.
    const rpi4 = new VirtualTargetClass(this, 'QemuRpi4', {
      metadata: { name: 'qemu-rpi4' },
      provisioner: 'qemu.jumpstarter.dev',
      bindingMode: 'Immediate',
      reclaimPolicy: 'Delete',
      scheduling: {
        nodeSelector: { 'kubernetes.io/arch': 'arm64' },
        tolerations: [{ key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' }],
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
      recycleStrategy: 'ExitAndReplace',
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

    // The short form: an x86_64 CI pool as one construct (a class and a set named x86-64-ci).
    new QemuPool(this, 'X8664Ci', {
      metadata: { name: 'x86-64-ci' },
      arch: 'x86_64',
      machineType: 'q35',
      cpu: 2,
      memory: Size.gibibytes(2),
      storage: Size.gibibytes(20),
      labels: { board: 'x86-64-virtual', arch: 'x86_64', virtual: 'true' },
      minAvailableReplicas: 3,
      maxReplicas: 10,
      scaleDownCooldown: Duration.minutes(10),
    });

    // Corellium cloud devices (corellium.jumpstarter.dev): a class only, as in the JEP, its credentials
    // (Secret corellium-creds, key "token") on the class; a set naming it gets cloud devices on demand.
    new VirtualTargetClass(this, 'CorelliumKronos', {
      metadata: { name: 'corellium-kronos' },
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretName: 'corellium-creds',
      bindingMode: 'WaitForFirstConsumer',
      reclaimPolicy: 'Delete',
      parameters: {
        api: { host: 'app.corellium.com', projectId: '778f00af-5e9b-40e6-8e7f-c4f14b632e9c' },
        device: { flavor: 'kronos', os: '1.1.1', build: 'Critical Application Monitor (Baremetal)' },
      },
    });

    // Android emulators (android.jumpstarter.dev), meant to be fully on demand.
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

    // SA8295 automotive boards emulated on bare-metal lab hosts, outside the cluster, over SSH
    // (qemu-baremetal.jumpstarter.dev, the JEP's name; upstream calls it qemu-ssh.jumpstarter.dev). The
    // Secret automotive-lab-ssh holds the key (ssh-privatekey); pin the hosts' keys with `knownHosts`,
    // or each is trusted on first use and reported in an event.
    const sa8295 = new VirtualTargetClass(this, 'QcomSa8295Baremetal', {
      metadata: { name: 'qcom-sa8295-baremetal' },
      provisioner: 'qemu-baremetal.jumpstarter.dev',
      credentialsSecretName: 'automotive-lab-ssh',
      bindingMode: 'Immediate',
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

/** The whole app; tests build it in memory, `main.ts` synthesizes it to dist/. */
export function buildGitopsApp(app: App = new App()): App {
  new ControllerChart(app, 'controller');
  new PoolsChart(app, 'pools');
  return app;
}
