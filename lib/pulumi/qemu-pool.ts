import * as pulumi from '@pulumi/pulumi';
import {
  ProvisionerNames,
  type BindingMode,
  type DriverConfig,
  type Images,
  type JsonObject,
  type LabelSelector,
  type ReclaimPolicy,
  type RecycleStrategy,
  type Scheduling,
} from '../api';
import { qemuPoolIssues } from '../manifests/checks';
import { qemuPoolProp } from '../manifests/prop-paths';
import { DEFAULT_QEMU_DRIVERS, qemuPoolParameters, type QemuPoolInput } from '../manifests/qemu-pool';
import {
  invalidArgsError,
  isPlain,
  resolve,
  TYPE_PREFIX,
  type ObjectMetadataArgs,
  type StringMapInput,
} from './args';
import { ExporterSet } from './exporter-set';
import { VirtualTargetClass } from './virtual-target-class';

export type QemuArch = 'x86_64' | 'aarch64';

/**
 * The same props as the cdk8s `QemuPool`, as Inputs. Units are strings, as the CRDs store them:
 * `memory: '8Gi'` and `storage: '16Gi'` are Kubernetes quantities, `scaleDownCooldown: '10m'` a Go duration.
 */
export interface QemuPoolArgs {
  /** Name, namespace and labels of the set (the class takes the same name unless `className` is given). @default name: the component's name */
  readonly metadata?: pulumi.Input<ObjectMetadataArgs>;
  /** @default the set's name */
  readonly className?: pulumi.Input<string>;
  /** Guest architecture. @default the runtime's default (x86_64) */
  readonly arch?: pulumi.Input<QemuArch>;
  /** QEMU machine type, e.g. `virt` or `q35`. @default the runtime's default */
  readonly machineType?: pulumi.Input<string>;
  /** Virtual CPUs (whole cores). @default the runtime's default */
  readonly cpu?: pulumi.Input<number>;
  /** Guest memory, a quantity such as `8Gi`. @default the runtime's default */
  readonly memory?: pulumi.Input<string>;
  /** Guest disk, a quantity such as `16Gi`; also sizes the Pod's shared volume so an image can be flashed. @default the runtime's default */
  readonly storage?: pulumi.Input<string>;
  /** Firmware to boot. @default none */
  readonly firmware?: pulumi.Input<{
    readonly url?: pulumi.Input<string>;
    readonly digest?: pulumi.Input<string>;
  }>;
  /** Use KVM acceleration. @default the runtime's default */
  readonly kvm?: pulumi.Input<boolean>;
  /** More QEMU parameters; the typed props above win over the same keys here. @default none */
  readonly extraParameters?: pulumi.Input<JsonObject>;
  /** Labels of every instance: what leases select on, e.g. `{ board: 'rpi4', virtual: 'true' }`. */
  readonly labels: StringMapInput;
  /** @default none */
  readonly annotations?: StringMapInput;
  /** @default one QEMU driver named `qemu` */
  readonly drivers?: pulumi.Input<pulumi.Input<DriverConfig>[]>;
  /** @default matchLabels = labels */
  readonly selector?: pulumi.Input<LabelSelector>;
  /** @default 0 */
  readonly minReplicas?: pulumi.Input<number>;
  /** 0 means unbounded. @default 4 */
  readonly maxReplicas?: pulumi.Input<number>;
  /** Warm buffer. @default 0 */
  readonly minAvailableReplicas?: pulumi.Input<number>;
  /** A Go duration. @default "5m" */
  readonly scaleDownCooldown?: pulumi.Input<string>;
  /** @default "ExitAndReplace" */
  readonly recycleStrategy?: pulumi.Input<RecycleStrategy>;
  /** @default "Immediate" */
  readonly bindingMode?: pulumi.Input<BindingMode>;
  /** @default "Delete" */
  readonly reclaimPolicy?: pulumi.Input<ReclaimPolicy>;
  /** @default none */
  readonly scheduling?: pulumi.Input<Scheduling>;
  /** @default the QEMU provisioner's images */
  readonly images?: pulumi.Input<Images>;
}

interface ResolvedPool {
  readonly input: QemuPoolInput;
  readonly metadata: pulumi.Unwrap<ObjectMetadataArgs> | undefined;
}

/**
 * The common case in one component: typed QEMU settings, board labels, drivers and pool sizes become
 * a `VirtualTargetClass` and an `ExporterSet` using it, both named after the pool. Everything, including
 * the QEMU provisioner's parameter rules, is checked before the children are made (or, for args holding
 * Outputs, when they resolve).
 */
export class QemuPool extends pulumi.ComponentResource {
  public static readonly type = `${TYPE_PREFIX}QemuPool`;

  public readonly virtualTargetClass: VirtualTargetClass;
  public readonly exporterSet: ExporterSet;
  /** The set's Kubernetes name. */
  public readonly name: pulumi.Output<string>;
  /** The class's Kubernetes name. */
  public readonly className: pulumi.Output<string>;
  /** The class parameters the typed props stand for. */
  public readonly parameters: pulumi.Output<JsonObject>;
  /** What the QEMU provisioner gets for each instance. */
  public readonly mergedParameters: pulumi.Output<JsonObject | undefined>;
  public readonly selector: pulumi.Output<LabelSelector>;

  constructor(name: string, args: QemuPoolArgs, opts?: pulumi.ComponentResourceOptions) {
    super(QemuPool.type, name, {}, opts);
    const check = (a: pulumi.Unwrap<QemuPoolArgs>): ResolvedPool => {
      const input: QemuPoolInput = {
        name: a.metadata?.name ?? name,
        namespace: a.metadata?.namespace,
        className: a.className,
        arch: a.arch,
        machineType: a.machineType,
        cpu: a.cpu,
        memory: a.memory,
        storage: a.storage,
        firmware: a.firmware,
        kvm: a.kvm,
        extraParameters: a.extraParameters,
        labels: a.labels,
        annotations: a.annotations,
        drivers: a.drivers,
        selector: a.selector,
        minReplicas: a.minReplicas,
        maxReplicas: a.maxReplicas,
        minAvailableReplicas: a.minAvailableReplicas,
        scaleDownCooldown: a.scaleDownCooldown,
        recycleStrategy: a.recycleStrategy,
        bindingMode: a.bindingMode,
        reclaimPolicy: a.reclaimPolicy,
        scheduling: a.scheduling,
        images: a.images,
      };
      const issues = qemuPoolIssues(input);
      if (issues.length > 0) throw invalidArgsError(QemuPool.type, name, 'QemuPool', issues, qemuPoolProp);
      return { input, metadata: a.metadata };
    };

    // Plain args give the children plain args (checked at once, shown in full by `pulumi preview`);
    // otherwise each child arg is an Output of the checked pool, so an invalid pool fails them all.
    const plain = isPlain(args) ? check(args as pulumi.Unwrap<QemuPoolArgs>) : undefined;
    const resolved = plain ? pulumi.output(plain) : resolve(args).apply(check);
    const from = <T>(pick: (p: ResolvedPool) => T): pulumi.Input<NonNullable<T>> =>
      (plain ? pick(plain) : resolved.apply((p) => pick(p as ResolvedPool))) as pulumi.Input<NonNullable<T>>;
    const childOpts = { parent: this, dependsOn: opts?.dependsOn };

    this.virtualTargetClass = new VirtualTargetClass(
      name,
      {
        metadata: from(({ input }) => ({ name: input.className ?? input.name, namespace: input.namespace })),
        provisioner: ProvisionerNames.qemu,
        parameters: from(({ input }) => qemuPoolParameters(input)),
        bindingMode: from(({ input }) => input.bindingMode),
        reclaimPolicy: from(({ input }) => input.reclaimPolicy),
        scheduling: from(({ input }) => input.scheduling),
        images: from(({ input }) => input.images),
      },
      childOpts,
    );
    this.exporterSet = new ExporterSet(
      name,
      {
        metadata: from(({ input, metadata }) => ({
          ...metadata,
          name: input.name,
          namespace: input.namespace,
        })),
        virtualTargetClass: this.virtualTargetClass,
        minReplicas: from(({ input }) => input.minReplicas),
        maxReplicas: from(({ input }) => input.maxReplicas),
        minAvailableReplicas: from(({ input }) => input.minAvailableReplicas),
        scaleDownCooldown: from(({ input }) => input.scaleDownCooldown),
        recycleStrategy: from(({ input }) => input.recycleStrategy),
        selector: from(({ input }) => input.selector),
        template: from(({ input }) => ({
          labels: input.labels,
          annotations: input.annotations,
          drivers: [...(input.drivers ?? DEFAULT_QEMU_DRIVERS)],
        })),
      },
      childOpts,
    );

    this.name = this.exporterSet.name;
    this.className = this.virtualTargetClass.name;
    this.parameters = this.virtualTargetClass.parameters;
    this.mergedParameters = this.exporterSet.mergedParameters;
    this.selector = this.exporterSet.selector;
    this.registerOutputs({
      name: this.name,
      className: this.className,
      parameters: this.parameters,
      mergedParameters: this.mergedParameters,
      selector: this.selector,
    });
  }
}
