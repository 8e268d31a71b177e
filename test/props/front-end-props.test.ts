/**
 * The cdk8s props and Pulumi args are derived from the framework-neutral inputs (lib/manifests), and
 * each front end maps its props back onto the input in one function. The type assertions below are
 * checked by `npm run typecheck`: a field added to an input must appear in both front ends with the
 * right type. The fixtures are `Required<…>`, so such a field must also be given here, and the tests
 * then show each mapping carries it to the input.
 */
import { describe, expect, it } from '@jest/globals';
import type * as pulumi from '@pulumi/pulumi';
import { Cron, Duration, Size } from 'cdk8s';
import type {
  ExporterSetControllerProps,
  ExporterSetProps,
  ExporterSetScheduleProps,
  QemuPoolProps,
} from '../../lib/cdk8s';
import { VirtualTargetClass as Cdk8sClass, type VirtualTargetClassProps } from '../../lib/cdk8s';
import { exporterSetInput as cdk8sSetInput } from '../../lib/cdk8s/exporter-set';
import { qemuPoolInput as cdk8sPoolInput } from '../../lib/cdk8s/qemu-pool';
import { virtualTargetClassInput as cdk8sClassInput } from '../../lib/cdk8s/virtual-target-class';
import type {
  ExporterSetControllerInput,
  ExporterSetOptions,
  ExporterTemplateInput,
  InstallerLayoutField,
  QemuPoolOptions,
  VirtualTargetClassOptions,
} from '../../lib/manifests';
import type {
  ExporterSetArgs,
  ExporterSetControllerArgs,
  ExporterTemplateArgs,
  QemuPoolArgs,
  VirtualTargetClassArgs,
} from '../../lib/pulumi';
import { exporterSetInput as pulumiSetInput } from '../../lib/pulumi/exporter-set';
import { qemuPoolInput as pulumiPoolInput } from '../../lib/pulumi/qemu-pool';
import { virtualTargetClassInput as pulumiClassInput } from '../../lib/pulumi/virtual-target-class';
import { testChart } from '../support/synth';

/** `true` exactly when A and B are the same type (optional fields and readonly included). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only for `true`. */
const holds = <T extends true>(): T => true as T;

const metadata = { labels: { team: 'a' }, annotations: { note: 'b' } };

const classOptions: Required<VirtualTargetClassOptions> = {
  provisioner: 'qemu.jumpstarter.dev',
  parameters: { arch: 'aarch64' },
  credentialsSecretName: 'creds',
  bindingMode: 'WaitForFirstConsumer',
  reclaimPolicy: 'Retain',
  scheduling: { nodeSelector: { zone: 'a' } },
  caBundle: { name: 'corp-ca', key: 'bundle.pem' },
  images: { runtime: { image: 'quay.io/x/runtime:1' } },
};

const template: Required<ExporterTemplateInput> = {
  labels: { board: 'rpi4' },
  annotations: { owner: 'lab' },
  drivers: [{ type: 'jumpstarter_driver_qemu.driver.Qemu' }],
};

const setOptions: Required<ExporterSetOptions> = {
  minReplicas: 1,
  maxReplicas: 8,
  minAvailableReplicas: 2,
  scaleDownCooldown: '10m',
  recycleStrategy: 'InPlaceReuse',
  paused: true,
  scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Random' },
  updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 0 },
  recycleRequestedAt: new Date('2026-11-26T18:00:00Z'),
  revisionHistoryLimit: 3,
  pinnedRevision: 'rpi4-0123456789',
  forecast: { mode: 'Apply', maxExtra: 2 },
  schedules: [
    {
      name: 'office-hours',
      cron: '0 8 * * 1-5',
      duration: '10h',
      timeZone: 'Europe/Berlin',
      leadTime: '5m',
      minAvailableReplicas: 6,
      minReplicas: 2,
    },
  ],
  parameters: { kvm: true },
  images: { exporter: { image: 'quay.io/x/exporter:1' } },
  selector: { matchLabels: { board: 'rpi4' } },
  template,
};

const poolOptions: Required<QemuPoolOptions> = {
  className: 'qemu-rpi4',
  arch: 'aarch64',
  machineType: 'virt',
  cpu: 4,
  memory: '8Gi',
  storage: '16Gi',
  firmware: { url: 'registry.example.com/firmware/rpi4:latest', digest: 'sha256:abc' },
  kvm: true,
  extraParameters: { bootTimeout: 120 },
  labels: { board: 'rpi4' },
  annotations: { owner: 'lab' },
  drivers: [{ type: 'jumpstarter_driver_qemu.driver.Qemu' }],
  selector: { matchLabels: { board: 'rpi4' } },
  minReplicas: 1,
  maxReplicas: 8,
  minAvailableReplicas: 2,
  scaleDownCooldown: '10m',
  recycleStrategy: 'InPlaceReuse',
  paused: true,
  scaleInStrategy: { selectors: [{ matchLabels: { tier: 'canary' } }], basePolicy: 'Random' },
  updateStrategy: { type: 'Proactive', maxSurge: '50%', maxUnavailable: 0 },
  recycleRequestedAt: new Date('2026-11-26T18:00:00Z'),
  revisionHistoryLimit: 3,
  pinnedRevision: 'rpi4-0123456789',
  forecast: { mode: 'Apply', maxExtra: 2 },
  bindingMode: 'Immediate',
  reclaimPolicy: 'Retain',
  scheduling: { nodeSelector: { zone: 'a' } },
  images: { runtime: { image: 'quay.io/x/runtime:1' } },
};

describe('front-end props › types derived from the neutral inputs', () => {
  it('gives the cdk8s props exactly the neutral fields, with units as Duration and Size', () => {
    expect([
      holds<Equal<keyof VirtualTargetClassProps, keyof VirtualTargetClassOptions | 'metadata'>>(),
      holds<Equal<keyof ExporterSetProps, keyof ExporterSetOptions | 'metadata' | 'virtualTargetClass'>>(),
      holds<Equal<keyof QemuPoolProps, keyof QemuPoolOptions | 'metadata'>>(),
      holds<Equal<ExporterSetControllerProps, ExporterSetControllerInput>>(),
      holds<Equal<ExporterSetProps['template'], ExporterTemplateInput>>(),
      holds<Equal<ExporterSetProps['scaleDownCooldown'], Duration | undefined>>(),
      holds<Equal<ExporterSetProps['recycleRequestedAt'], Date | undefined>>(),
      holds<Equal<ExporterSetProps['schedules'], readonly ExporterSetScheduleProps[] | undefined>>(),
      holds<Equal<ExporterSetScheduleProps['cron'], Cron>>(),
      holds<Equal<ExporterSetScheduleProps['leadTime'], Duration | undefined>>(),
      holds<Equal<QemuPoolProps['recycleRequestedAt'], Date | undefined>>(),
      holds<Equal<QemuPoolProps['scaleDownCooldown'], Duration | undefined>>(),
      holds<Equal<QemuPoolProps['memory'], Size | undefined>>(),
      holds<Equal<QemuPoolProps['storage'], Size | undefined>>(),
      holds<Equal<QemuPoolProps['cpu'], number | undefined>>(),
      holds<Equal<QemuPoolProps['labels'], Readonly<Record<string, string>>>>(),
    ]).not.toContain(false);
  });

  it('gives the Pulumi args exactly the neutral fields, each an Input, the installer layout plain', () => {
    expect([
      holds<Equal<keyof VirtualTargetClassArgs, keyof VirtualTargetClassOptions | 'metadata'>>(),
      holds<Equal<keyof ExporterSetArgs, keyof ExporterSetOptions | 'metadata' | 'virtualTargetClass'>>(),
      holds<Equal<keyof ExporterTemplateArgs, keyof ExporterTemplateInput>>(),
      holds<Equal<keyof QemuPoolArgs, keyof QemuPoolOptions | 'metadata'>>(),
      holds<Equal<keyof ExporterSetControllerArgs, keyof ExporterSetControllerInput>>(),
      holds<Equal<VirtualTargetClassArgs['provisioner'], pulumi.Input<string>>>(),
      holds<Equal<ExporterSetArgs['scaleDownCooldown'], pulumi.Input<string> | undefined>>(),
      holds<Equal<ExporterSetArgs['recycleRequestedAt'], pulumi.Input<string> | Date | undefined>>(),
      holds<Equal<QemuPoolArgs['memory'], pulumi.Input<string> | undefined>>(),
      holds<Equal<QemuPoolArgs['labels'], pulumi.Input<Record<string, pulumi.Input<string>>>>>(),
      holds<Equal<ExporterSetControllerArgs['replicas'], pulumi.Input<number> | undefined>>(),
      holds<
        Equal<
          Pick<ExporterSetControllerArgs, InstallerLayoutField>,
          Pick<ExporterSetControllerInput, InstallerLayoutField>
        >
      >(),
    ]).not.toContain(false);
  });
});

describe('front-end props › one mapping per front end carries every field to the neutral input', () => {
  const meta = { name: 'x', namespace: 'lab', ...metadata };

  it('VirtualTargetClass: cdk8s props and Pulumi args', () => {
    const expected = { ...classOptions, ...meta };
    expect(
      cdk8sClassInput({ ...classOptions, metadata: { name: 'given', ...metadata } }, 'x', 'lab'),
    ).toEqual(expected);
    const args = { ...classOptions, metadata: meta } as pulumi.Unwrap<VirtualTargetClassArgs>;
    expect(pulumiClassInput(args, 'component')).toEqual(expected);
  });

  it('ExporterSet: cdk8s props (cooldown a Duration, recycle request a Date, schedules with a Cron and Durations) and Pulumi args', () => {
    const expected = { ...setOptions, ...meta, virtualTargetClassName: 'qemu-rpi4' };
    const cls = Cdk8sClass.fromName(testChart('lab'), 'Class', 'qemu-rpi4');
    const props: ExporterSetProps = {
      ...setOptions,
      recycleRequestedAt: setOptions.recycleRequestedAt as Date,
      metadata: { name: 'given', ...metadata },
      virtualTargetClass: cls,
      scaleDownCooldown: Duration.minutes(10),
      schedules: [
        {
          name: 'office-hours',
          cron: Cron.schedule({ minute: '0', hour: '8', weekDay: '1-5' }),
          duration: Duration.hours(10),
          timeZone: 'Europe/Berlin',
          leadTime: Duration.minutes(5),
          minAvailableReplicas: 6,
          minReplicas: 2,
        },
      ],
    };
    expect(cdk8sSetInput(props, 'x', 'lab')).toEqual(expected);
    const args = { ...setOptions, metadata: meta } as pulumi.Unwrap<
      Omit<ExporterSetArgs, 'virtualTargetClass'>
    >;
    expect(pulumiSetInput(args, 'component', 'qemu-rpi4')).toEqual(expected);
  });

  it('QemuPool: cdk8s props (sizes as Size, cooldown a Duration) and Pulumi args', () => {
    const expected = { ...poolOptions, name: 'rpi4', namespace: 'lab' };
    const props: QemuPoolProps = {
      ...poolOptions,
      metadata: { name: 'rpi4' },
      memory: Size.gibibytes(8),
      storage: Size.gibibytes(16),
      scaleDownCooldown: Duration.minutes(10),
      recycleRequestedAt: poolOptions.recycleRequestedAt as Date,
    };
    expect(cdk8sPoolInput(props, 'lab')).toEqual(expected);
    const args = {
      ...poolOptions,
      metadata: { name: 'rpi4', namespace: 'lab' },
    } as pulumi.Unwrap<QemuPoolArgs>;
    expect(pulumiPoolInput(args, 'component')).toEqual(expected);
  });

  it('names unnamed objects as each front end does: the construct path or the component name', () => {
    expect(cdk8sPoolInput({ labels: { board: 'x' } }, undefined)).toEqual({
      labels: { board: 'x' },
      name: 'generated',
      namespace: undefined,
      memory: undefined,
      storage: undefined,
      scaleDownCooldown: undefined,
    });
    expect(pulumiPoolInput({ labels: { board: 'x' } }, 'component')).toMatchObject({ name: 'component' });
    expect(pulumiClassInput({ provisioner: 'qemu.jumpstarter.dev' }, 'component')).toMatchObject({
      name: 'component',
      namespace: undefined,
    });
  });
});
