// What the pytest suite (jsii/python-tests) compares Python against, written by the TypeScript library
// itself: `npx ts-node --transpile-only jsii/scripts/python-fixtures.ts <dir>` writes
//   gitops.yaml, gitops/<chart>.k8s.yaml  the TypeScript GitOps app (examples/gitops), as one and as cdk8s synth files
//   qemu-pool-full.yaml                    a QemuPool with every option, built by lib/cdk8s
//   errors.json                            the TypeScript constructs' messages for invalid props (cases below)
//   exporter-configs/<name>.yaml           the exporter configs the provisioners render for every class and
//   exporter-configs/index.json            set of the GitOps app, and for a set of each with every option
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { buildGitopsApp } from '../../examples/gitops/app';
import type { DriverConfig, Exporter, ExporterSet, JsonObject, VirtualTargetClass } from '../../lib/api';
import {
  ExporterSet as ExporterSetConstruct,
  QemuPool,
  VirtualTargetClass as ClassConstruct,
} from '../../lib/cdk8s';
import { deepMerge } from '../../lib/core/merge';
import { getProvisioner } from '../../lib/provisioners/registry';
import { renderRemoteFiles } from '../../lib/provisioners/qemu-ssh/remote-files';

const out = process.argv[2];
if (!out) throw new Error('usage: python-fixtures.ts <output folder>');
fs.mkdirSync(path.join(out, 'exporter-configs'), { recursive: true });
const write = (file: string, text: string) => fs.writeFileSync(path.join(out, file), text);

// 1. The GitOps app: one YAML stream, and the files `cdk8s synth` writes.
write('gitops.yaml', buildGitopsApp(new App()).synthYaml());
buildGitopsApp(new App({ outdir: path.join(out, 'gitops') })).synth();

// 2. A QemuPool with every option (the Python test sets the same ones through the facade).
function fullQemuPool(chart: Chart): QemuPool {
  return new QemuPool(chart, 'Full', {
    metadata: { name: 'full', labels: { team: 'os' } },
    className: 'full-class',
    arch: 'aarch64',
    machineType: 'virt',
    cpu: 4,
    memory: Size.gibibytes(8),
    storage: Size.gibibytes(32),
    firmware: { url: 'registry.example.com/fw:1', digest: `sha256:${'a'.repeat(64)}` },
    kvm: true,
    extraParameters: { bios: 'uefi', extra: { nested: [1, 'two', true] } },
    labels: { board: 'full', virtual: 'true' },
    annotations: { note: 'all options' },
    drivers: [{ name: 'vm', type: 'jumpstarter_driver_qemu.driver.Qemu', config: { hostname: 'full' } }],
    minReplicas: 1,
    maxReplicas: 9,
    minAvailableReplicas: 2,
    scaleDownCooldown: Duration.seconds(90),
    recycleStrategy: 'InPlaceReuse',
    paused: true,
    scaleInStrategy: {
      basePolicy: 'Oldest',
      selectors: [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['spare'] }] }],
    },
    updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 0 },
    recycleRequestedAt: new Date('2026-11-01T08:00:00Z'),
    revisionHistoryLimit: 3,
    pinnedRevision: 'full-5d8f7c',
    forecast: { mode: 'ForecastOnly', maxExtra: 2 },
    selector: { matchLabels: { board: 'full' } },
    bindingMode: 'WaitForFirstConsumer',
    reclaimPolicy: 'Retain',
    scheduling: {
      nodeSelector: { 'kubernetes.io/arch': 'arm64' },
      tolerations: [{ key: 'kvm', operator: 'Exists', effect: 'NoSchedule' }],
      resources: { limits: { 'devices.kubevirt.io/kvm': '1' }, requests: { cpu: '2' } },
      affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
      priorityClassName: 'lab',
      runtimeClassName: 'kata',
    },
    images: {
      exporter: { image: 'quay.example.com/jumpstarter:1', imagePullPolicy: 'IfNotPresent' },
      runtime: { image: 'quay.example.com/qemu:1', imagePullPolicy: 'Always' },
    },
  });
}
const fullApp = new App();
fullQemuPool(new Chart(fullApp, 'pools', { namespace: 'lab' }));
write('qemu-pool-full.yaml', fullApp.synthYaml());

// 3. Invalid props: the message of each case, as the TypeScript construct throws it.
const ERROR_CASES: Record<string, (chart: Chart) => void> = {
  'qemu-pool-negative-max': (chart) =>
    new QemuPool(chart, 'Bad', { labels: { board: 'x' }, maxReplicas: -1 }),
  'class-empty-provisioner': (chart) => new ClassConstruct(chart, 'Bad', { provisioner: '' }),
  'set-floor-above-ceiling': (chart) =>
    new ExporterSetConstruct(chart, 'Bad', {
      virtualTargetClass: ClassConstruct.fromName(chart, 'Cls', 'some-class'),
      minReplicas: 5,
      maxReplicas: 2,
      template: { labels: { board: 'x' } },
    }),
};
const messages: Record<string, string> = {};
for (const [name, build] of Object.entries(ERROR_CASES)) {
  try {
    build(new Chart(new App(), 'pools', { namespace: 'lab' }));
  } catch (err) {
    messages[name] = (err as Error).message;
    continue;
  }
  throw new Error(`python-fixtures: error case ${name} was accepted`);
}
write('errors.json', JSON.stringify(messages, null, 2));

// 4. Exporter configs: one instance of every set of the GitOps app (and a set for its Corellium class,
// which has none there), and of a set with every option for each provisioner.
const QEMU = 'jumpstarter_driver_qemu.driver.Qemu';
const TCP = 'jumpstarter_driver_network.driver.TcpNetwork';
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBfixture\n-----END CERTIFICATE-----\n';

function classObject(
  name: string,
  provisioner: string,
  parameters: JsonObject,
  credentialsSecretName?: string,
): VirtualTargetClass {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name, namespace: 'lab' },
    spec: {
      provisioner,
      parameters,
      ...(credentialsSecretName !== undefined
        ? { credentialsSecretRef: { name: credentialsSecretName } }
        : {}),
    },
  };
}

function setObject(
  name: string,
  className: string,
  drivers: DriverConfig[],
  extra: JsonObject = {},
): ExporterSet {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name, namespace: 'lab', uid: `${name}-uid` },
    spec: {
      virtualTargetClassName: className,
      selector: { matchLabels: { set: name } },
      template: { metadata: { labels: { set: name } }, spec: { drivers } },
      ...extra,
    },
  } as ExporterSet;
}

interface Pair {
  readonly source: 'gitops' | 'every-option';
  readonly cls: VirtualTargetClass;
  readonly set: ExporterSet;
}

const gitopsObjects = buildGitopsApp(new App()).charts.flatMap((chart) => Testing.synth(chart)) as {
  kind: string;
}[];
const gitopsClasses = gitopsObjects.filter((o) => o.kind === 'VirtualTargetClass') as VirtualTargetClass[];
const pairs: Pair[] = (gitopsObjects.filter((o) => o.kind === 'ExporterSet') as ExporterSet[]).map((set) => ({
  source: 'gitops' as const,
  set,
  cls: gitopsClasses.find((c) => c.metadata.name === set.spec.virtualTargetClassName)!,
}));
for (const cls of gitopsClasses.filter((c) => !pairs.some((p) => p.cls === c))) {
  pairs.push({
    source: 'gitops',
    cls,
    set: setObject(`${cls.metadata.name}-devices`, cls.metadata.name!, []),
  });
}

const firmware = { url: 'registry.example.com/fw:1', digest: `sha256:${'b'.repeat(64)}` };
pairs.push(
  {
    source: 'every-option',
    cls: classObject('qemu-full', 'qemu.jumpstarter.dev', {
      arch: 'aarch64',
      machineType: 'virt',
      resources: { cpu: 4, memory: '8Gi', storage: '32Gi' },
      firmware,
      kvm: true,
    }),
    set: setObject(
      'qemu-full',
      'qemu-full',
      [
        { name: 'vm', type: QEMU, config: { hostname: 'lab-vm', username: 'lab', password: 'lab-password' } },
        { name: 'ssh', type: TCP, config: { host: '127.0.0.1', port: 2222 } },
        { name: 'machine', ref: 'vm' },
      ],
      { recycleStrategy: 'InPlaceReuse' },
    ),
  },
  {
    source: 'every-option',
    cls: classObject('qemu-ssh-full', 'qemu-ssh.jumpstarter.dev', {
      ssh: { user: 'lab', port: 2200 },
      hosts: [{ name: 'bench-01.example.com', arch: 'x86_64', slots: 2, user: 'root', port: 22 }],
      runtime: { kvm: true, devices: ['/dev/vhost-net'] },
      arch: 'x86_64',
      resources: { cpu: 2, memory: '4Gi' },
      storage: { size: '20Gi' },
    }),
    set: setObject('qemu-ssh-full', 'qemu-ssh-full', [{ type: QEMU, config: { hostname: 'bench-vm' } }]),
  },
  {
    source: 'every-option',
    cls: classObject(
      'corellium-full',
      'corellium.jumpstarter.dev',
      {
        api: { host: 'app.corellium.com', projectId: '778f00af-5e9b-40e6-8e7f-c4f14b632e9c' },
        device: { flavor: 'kronos', os: '1.1.1', build: 'Critical Application Monitor (Baremetal)' },
      },
      'corellium-creds',
    ),
    set: setObject('corellium-full', 'corellium-full', [
      {
        name: 'kronos',
        type: 'jumpstarter_driver_corellium.driver.Corellium',
        config: { console_name: 'Primary Compute Non-Secure' },
      },
    ]),
  },
  {
    source: 'every-option',
    cls: classObject('android-full', 'android.jumpstarter.dev', {
      apiLevel: 34,
      device: 'pixel_7',
      abi: 'x86_64',
    }),
    set: setObject('android-full', 'android-full', [
      {
        name: 'phone',
        type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator',
        config: { console_port: 5556, adb_server_port: 15038 },
      },
    ]),
  },
);

function exporterOf(set: ExporterSet): Exporter {
  const name = `${set.metadata.name}-0`;
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: { name, namespace: set.metadata.namespace ?? 'lab', uid: `${name}-uid` },
    status: { endpoint: 'grpc.jumpstarter.example:443', credential: { name: `${name}-exporter` } },
  } as Exporter;
}

/** The config.yaml the provisioner renders for one instance of `set`. */
function renderConfig({ cls, set }: Pair): string {
  const provisioner = getProvisioner(cls.spec.provisioner);
  if (!provisioner) throw new Error(`python-fixtures: no provisioner ${cls.spec.provisioner}`);
  const instance = {
    virtualTargetClass: cls,
    exporterSet: set,
    parameters: deepMerge(cls.spec.parameters ?? {}, set.spec.parameters ?? {}) as JsonObject,
    exporter: exporterOf(set),
    token: 'header.payload.signature',
    caBundle: CA_PEM,
  };
  if (provisioner.lifecycle) {
    // Off-cluster (qemu-ssh): the config is the first file written on the host.
    return renderRemoteFiles(instance).files[0].content;
  }
  const secret = provisioner.render(instance).objects.find((o) => o.kind === 'Secret') as
    { data?: Record<string, string>; stringData?: Record<string, string> } | undefined;
  const data = secret?.data?.['config.yaml'];
  const text =
    data !== undefined ? Buffer.from(data, 'base64').toString('utf8') : secret?.stringData?.['config.yaml'];
  if (text === undefined) throw new Error(`python-fixtures: ${cls.spec.provisioner} rendered no config.yaml`);
  return text;
}

const index = pairs.map((pair) => {
  const file = `${pair.source}-${pair.set.metadata.name}.yaml`;
  const text = renderConfig(pair);
  parse(text); // well-formed YAML before Python reads it
  fs.writeFileSync(path.join(out, 'exporter-configs', file), text);
  return {
    file,
    source: pair.source,
    provisioner: pair.cls.spec.provisioner,
    exporterSet: pair.set.metadata.name,
  };
});
write('exporter-configs/index.json', JSON.stringify(index, null, 2));
