// A lab cluster's Pulumi program (`pulumi up` in this directory): the controller and two warm pools.
// Sizes and the namespace come from stack config, e.g. `pulumi config set x86WarmReplicas 4`; the
// defaults are the ones Pulumi.yaml declares. It imports the package by name, as an application does;
// from a clone that resolves to the built library, so run `npm ci && npm run build` first.
import * as pulumi from '@pulumi/pulumi';
import { ExporterSetController, QemuPool } from 'virtual-exporters/pulumi';

const config = new pulumi.Config();
const namespace = config.get('namespace') ?? 'jumpstarter';

// CRDs, least-privilege RBAC for the lab namespace, and the controller for QEMU pools.
const controller = new ExporterSetController('lab', {
  namespace,
  provisioners: ['qemu.jumpstarter.dev'],
  watchNamespaces: [namespace],
});

// Pools are custom resources: they can only be created once their CRDs exist.
const afterCrds = { dependsOn: controller.crds };

// x86_64 machines for CI: a warm buffer, idle surplus removed after 10 minutes.
const x86 = new QemuPool(
  'x86-64-ci',
  {
    metadata: { namespace },
    arch: 'x86_64',
    machineType: 'q35',
    cpu: 2,
    memory: '2Gi',
    storage: '20Gi',
    labels: { board: 'x86-64-virtual', arch: 'x86_64', virtual: 'true' },
    minAvailableReplicas: config.getNumber('x86WarmReplicas') ?? 2,
    maxReplicas: config.getNumber('x86MaxReplicas') ?? 10,
    scaleDownCooldown: '10m',
  },
  afterCrds,
);

// Raspberry Pi 4 boards emulated on arm64 nodes with KVM, as in JEP-0014.
const rpi4 = new QemuPool(
  'rpi4-virtual',
  {
    metadata: { namespace },
    className: 'qemu-rpi4',
    arch: 'aarch64',
    machineType: 'virt',
    cpu: 4,
    memory: '8Gi',
    storage: '16Gi',
    kvm: true,
    labels: { board: 'rpi4', arch: 'aarch64', virtual: 'true' },
    // Jumpstarter's QEMU driver brings power, console and flasher; the provisioner adds a tcp driver for SSH.
    drivers: [{ type: 'jumpstarter_driver_qemu.driver.Qemu' }],
    minAvailableReplicas: config.getNumber('rpi4WarmReplicas') ?? 1,
    maxReplicas: config.getNumber('rpi4MaxReplicas') ?? 4,
    scheduling: {
      nodeSelector: { 'kubernetes.io/arch': 'arm64' },
      tolerations: [{ key: 'jumpstarter.dev/kvm', operator: 'Exists', effect: 'NoSchedule' }],
      resources: { limits: { 'devices.kubevirt.io/kvm': '1' } },
    },
  },
  afterCrds,
);

// Stack outputs: what `jmp` users select on, and where to look with kubectl.
export const controllerNamespace = controller.namespace;
export const pools = {
  x86: { exporterSet: x86.name, selector: x86.selector },
  rpi4: { exporterSet: rpi4.name, selector: rpi4.selector },
};
