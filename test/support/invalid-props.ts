/**
 * One table of invalid props for both front ends (SPEC §4: same names, props and validation). The cdk8s
 * tests build each case as constructs, the Pulumi tests as components (with plain args, and with every
 * arg an Output); each must print exactly `lines` after its own prefix (`[test/X] invalid Kind:` or
 * `[virtual-exporters:index:Kind::x] invalid Kind:`). Framework-neutral: loads neither cdk8s nor Pulumi.
 */
import { RuleMessages } from '../../lib/api';

export type ConstructName = 'VirtualTargetClass' | 'ExporterSet' | 'QemuPool' | 'ExporterSetController';

export interface InvalidPropsCase {
  readonly title: string;
  readonly construct: ConstructName;
  /**
   * Props as the Pulumi components take them, over `BASE_PROPS`: quantities and durations are strings
   * (the cdk8s test turns them into `Size` and `Duration`).
   */
  readonly props: Readonly<Record<string, unknown>>;
  /** ExporterSet only: the class it uses, defined next to it, over `BASE_CLASS_PROPS`. */
  readonly classProps?: Readonly<Record<string, unknown>>;
  /** The issue lines, `<prop>=<value>: <rule>`, in order. */
  readonly lines: readonly string[];
}

const TEMPLATE = { labels: { board: 'rpi4', virtual: 'true' } };

/** What each construct needs to be valid; every case breaks it in one way. */
export const BASE_PROPS: Readonly<Record<ConstructName, Readonly<Record<string, unknown>>>> = {
  VirtualTargetClass: { provisioner: 'qemu.jumpstarter.dev' },
  ExporterSet: { template: TEMPLATE },
  QemuPool: { labels: { board: 'x86' } },
  ExporterSetController: {},
};

export const BASE_CLASS_PROPS: Readonly<Record<string, unknown>> = {
  metadata: { name: 'qemu' },
  provisioner: 'qemu.jumpstarter.dev',
};

const QUANTITY_RULE =
  'must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes)';
const NO_LABELS_RULE =
  'give the instances at least one label (leases select on labels) or an explicit selector; ' +
  'a selector derived from no labels would select every Exporter in the namespace';

export const INVALID_PROPS: readonly InvalidPropsCase[] = [
  {
    title: 'a class without a provisioner',
    construct: 'VirtualTargetClass',
    props: { provisioner: '' },
    lines: ['provisioner="": must not be empty'],
  },
  {
    title: 'an unknown binding mode',
    construct: 'VirtualTargetClass',
    props: { bindingMode: 'Lazy' },
    lines: ['bindingMode="Lazy": must be one of Immediate, WaitForFirstConsumer'],
  },
  {
    title: 'a CA bundle without a ConfigMap name (named as the caBundle prop)',
    construct: 'VirtualTargetClass',
    props: { caBundle: { name: '' } },
    lines: ['caBundle.name="": must not be empty'],
  },
  {
    title: 'a toleration breaking two rules at once (one line each)',
    construct: 'VirtualTargetClass',
    props: { scheduling: { tolerations: [{ operator: 'Maybe' }] } },
    lines: [
      'scheduling.tolerations[0].operator="Maybe": must be one of Equal, Exists (empty means Equal)',
      'scheduling.tolerations[0].operator="Maybe": must be Exists when the key is empty (that tolerates every taint)',
    ],
  },
  {
    title: 'minReplicas above maxReplicas',
    construct: 'ExporterSet',
    props: { minReplicas: 5, maxReplicas: 2 },
    lines: [`minReplicas=5: ${RuleMessages.minReplicasLeMax}`],
  },
  {
    title: 'an update strategy that could never replace an instance',
    construct: 'ExporterSet',
    props: { updateStrategy: { maxSurge: 0, maxUnavailable: '0%' } },
    lines: [`updateStrategy={"maxSurge":0,"maxUnavailable":"0%"}: ${RuleMessages.updateStrategyNotBothZero}`],
  },
  {
    title: 'a scale-in selector requirement In without values',
    construct: 'ExporterSet',
    props: { scaleInStrategy: { selectors: [{ matchExpressions: [{ key: 'tier', operator: 'In' }] }] } },
    lines: [`scaleInStrategy.selectors[0].matchExpressions[0].values: ${RuleMessages.selectorValues}`],
  },
  {
    title: 'both minimums above maxReplicas',
    construct: 'ExporterSet',
    props: { minReplicas: 5, minAvailableReplicas: 3, maxReplicas: 2 },
    lines: [
      `minReplicas=5: ${RuleMessages.minReplicasLeMax}`,
      `minAvailableReplicas=3: ${RuleMessages.minAvailableLeMax}`,
    ],
  },
  {
    title: 'a pinned revision that is no ControllerRevision name or hash',
    construct: 'ExporterSet',
    props: { pinnedRevision: 'Pool Rev 1' },
    lines: [`pinnedRevision="Pool Rev 1": ${RuleMessages.pinnedRevision}`],
  },
  {
    title: 'a negative revision history limit',
    construct: 'ExporterSet',
    props: { revisionHistoryLimit: -1 },
    lines: ['revisionHistoryLimit=-1: must be greater than or equal to 0'],
  },
  {
    title: 'a pinned revision of a pool that is no revision name',
    construct: 'QemuPool',
    props: { pinnedRevision: 'pool_1' },
    lines: [`pinnedRevision="pool_1": ${RuleMessages.pinnedRevision}`],
  },
  {
    title: 'a driver with both type and ref',
    construct: 'ExporterSet',
    props: { template: { ...TEMPLATE, drivers: [{ name: 'x', type: 'a.B', ref: 'a.b' }] } },
    lines: [`template.drivers[0]: ${RuleMessages.driverTypeRefExclusive}`],
  },
  {
    title: 'driver names that collide after derivation',
    construct: 'ExporterSet',
    props: {
      template: {
        ...TEMPLATE,
        drivers: [{ type: 'jumpstarter_driver_power.driver.QemuPower' }, { name: 'power', type: 'x.Y' }],
      },
    },
    lines: [`template.drivers[1]="power": ${RuleMessages.driverNamesUnique}`],
  },
  {
    title: 'a selector that misses the template',
    construct: 'ExporterSet',
    props: { selector: { matchLabels: { board: 'rpi5' } } },
    lines: [`selector={"matchLabels":{"board":"rpi5"}}: ${RuleMessages.selectorMatchesTemplate}`],
  },
  {
    title: 'a set with no template labels',
    construct: 'ExporterSet',
    props: { template: { labels: {} } },
    lines: [`template.labels={}: ${NO_LABELS_RULE}`],
  },
  {
    title: 'a class in another namespace',
    construct: 'ExporterSet',
    props: { metadata: { namespace: 'a' } },
    classProps: { metadata: { name: 'qemu', namespace: 'b' } },
    lines: [
      'virtualTargetClass="qemu": the class is in namespace "b" but the set is in "a"; a set may only use a class in its own namespace, so define the class there or move the set',
    ],
  },
  {
    title: 'a class whose provisioner nobody knows',
    construct: 'ExporterSet',
    props: {},
    classProps: { metadata: { name: 'c' }, provisioner: 'foo.example.com' },
    lines: [
      'virtualTargetClass="c": VirtualTargetClass "c" uses provisioner "foo.example.com", which is not known; known provisioners: android.jumpstarter.dev, corellium.jumpstarter.dev, qemu-baremetal.jumpstarter.dev, qemu-ssh.jumpstarter.dev, qemu.jumpstarter.dev, ec2.jumpstarter.dev',
    ],
  },
  {
    title: 'merged parameters the QEMU provisioner rejects',
    construct: 'ExporterSet',
    props: { parameters: { resources: { memory: 'lots' } } },
    classProps: { parameters: { resources: { cpu: 4, memory: '4Gi' } } },
    lines: [`parameters.resources.memory="lots": ${QUANTITY_RULE}`],
  },
  {
    title: 'fractional CPUs',
    construct: 'QemuPool',
    props: { cpu: 2.5 },
    lines: [
      `cpu=2.5: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU's smp option takes whole CPUs)`,
    ],
  },
  {
    title: 'too little memory',
    construct: 'QemuPool',
    props: { memory: '512Ki' },
    lines: [`memory="512Ki": ${QUANTITY_RULE}`],
  },
  {
    title: 'an unknown architecture',
    construct: 'QemuPool',
    props: { arch: 'riscv64' },
    lines: ['arch="riscv64": must be one of "x86_64", "aarch64" (the guest architecture)'],
  },
  {
    title: 'a firmware digest with a weak algorithm',
    construct: 'QemuPool',
    props: { firmware: { url: 'x', digest: 'md5:1' } },
    lines: [
      'firmware.digest="md5:1": must be "<algorithm>:<digest>" with algorithm sha256, sha384, sha512 and no spaces, such as "sha256:" followed by 64 hex digits',
    ],
  },
  {
    title: 'a typed parameter set through extraParameters (named as the typed prop)',
    construct: 'QemuPool',
    props: { extraParameters: { kvm: 'yes' } },
    lines: ['kvm="yes": must be true or false'],
  },
  {
    title: 'a pool with no labels',
    construct: 'QemuPool',
    props: { labels: {} },
    lines: [`labels={}: ${NO_LABELS_RULE}`],
  },
  {
    title: 'a pool driver that takes the name of the driver the provisioner adds',
    construct: 'QemuPool',
    props: { drivers: [{ name: 'tcp', type: 'jumpstarter_driver_serial.driver.QemuSerial' }] },
    lines: [
      'drivers[0].name="tcp": driver "tcp" (type jumpstarter_driver_serial.driver.QemuSerial) takes the name of the driver qemu.jumpstarter.dev adds for guest SSH on 127.0.0.1:2222 when the template has no jumpstarter_driver_network.driver.TcpNetwork driver; rename this driver, or add your own jumpstarter_driver_network.driver.TcpNetwork driver so none is added',
    ],
  },
  {
    title: 'pool sizes that contradict each other',
    construct: 'QemuPool',
    props: { minReplicas: 5, maxReplicas: 2 },
    lines: [`minReplicas=5: ${RuleMessages.minReplicasLeMax}`],
  },
  {
    title: 'a provisioner the controller does not implement',
    construct: 'ExporterSetController',
    props: { provisioners: ['ec2.jumpstarter.dev'] },
    lines: [
      'provisioners[0]="ec2.jumpstarter.dev": is not a provisioner the controller implements; use one of: android.jumpstarter.dev, corellium.jumpstarter.dev, qemu-baremetal.jumpstarter.dev, qemu-ssh.jumpstarter.dev, qemu.jumpstarter.dev',
    ],
  },
  {
    title: 'a provisioner listed twice',
    construct: 'ExporterSetController',
    props: { provisioners: ['qemu.jumpstarter.dev', 'qemu.jumpstarter.dev'] },
    lines: ['provisioners[1]="qemu.jumpstarter.dev": is listed twice; each provisioner runs once'],
  },
  {
    title: 'replicas without leader election',
    construct: 'ExporterSetController',
    props: { replicas: 2, leaderElect: false },
    lines: [
      'replicas=2: more than one replica needs leaderElect: true, or the replicas would reconcile the same sets at once',
    ],
  },
  {
    title: 'an install namespace that is not a DNS label',
    construct: 'ExporterSetController',
    props: { namespace: 'Lab_1' },
    lines: [
      'namespace="Lab_1": namespace must be a lowercase DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit (e.g. "jumpstarter" or "lab-1")',
    ],
  },
];

/** The case's full props: the construct's base props with the case's over them. */
export function propsOf(c: InvalidPropsCase): Record<string, unknown> {
  return { ...BASE_PROPS[c.construct], ...c.props };
}

/** The full props of the class an ExporterSet case uses. */
export function classPropsOf(c: InvalidPropsCase): Record<string, unknown> {
  return { ...BASE_CLASS_PROPS, ...c.classProps };
}

/**
 * The issue lines of an `invalidArgsMessage` error whose head is `head` (`[where] invalid Kind`):
 * `<head>: <line>` or `<head>:\n  <line>\n  <line>`. Throws when the message has another head.
 */
export function linesAfterHead(message: string, head: string): string[] {
  if (!message.startsWith(`${head}:`))
    throw new Error(`expected a message starting with "${head}:", got: ${message}`);
  const rest = message.slice(head.length + 1);
  return rest.startsWith('\n  ') ? rest.slice(3).split('\n  ') : [rest.replace(/^ /, '')];
}
