import * as pulumi from '@pulumi/pulumi';
import { ProvisionerNames, type DriverConfig, type JsonObject, type LabelSelector } from '../api';
import { qemuPoolIssues } from '../manifests/checks';
import { timestampText } from '../manifests/exporter-set';
import { qemuPoolProp } from '../manifests/prop-paths';
import {
  qemuPoolParts,
  type QemuPoolInput,
  type QemuPoolOptions,
  type QemuPoolParts,
} from '../manifests/qemu-pool';
import {
  invalidArgsError,
  isPlain,
  resolve,
  TYPE_PREFIX,
  type InputsOf,
  type ObjectMetadataArgs,
} from './args';
import { ExporterSet } from './exporter-set';
import { VirtualTargetClass } from './virtual-target-class';

export type { QemuArch } from '../provisioners/qemu/parameters';

/**
 * The framework-neutral pool settings (`QemuPoolOptions`, where each is documented) as Inputs. Units are strings, as the CRDs
 * store them: `memory: '8Gi'` and `storage: '16Gi'` are Kubernetes quantities, `scaleDownCooldown: '10m'`
 * a Go duration.
 */
export interface QemuPoolArgs extends InputsOf<
  QemuPoolOptions,
  {
    firmware: { readonly url?: pulumi.Input<string>; readonly digest?: pulumi.Input<string> };
    labels: Record<string, pulumi.Input<string>>;
    annotations: Record<string, pulumi.Input<string>>;
    drivers: pulumi.Input<DriverConfig>[];
  }
> {
  /** Name, namespace and labels of the set (the class takes the same name unless `className` is given). @default name: the component's name */
  readonly metadata?: pulumi.Input<ObjectMetadataArgs>;
}

/** Resolved args as the framework-neutral input; `name` is the component's. */
export function qemuPoolInput(args: pulumi.Unwrap<QemuPoolArgs>, name: string): QemuPoolInput {
  const { metadata, ...options } = args;
  return { name: metadata?.name ?? name, namespace: metadata?.namespace, ...options };
}

interface ResolvedPool extends QemuPoolParts {
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
      const input = qemuPoolInput(a, name);
      const issues = qemuPoolIssues(input);
      if (issues.length > 0) throw invalidArgsError(QemuPool.type, name, 'QemuPool', issues, qemuPoolProp);
      return { ...qemuPoolParts(input), input, metadata: a.metadata };
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
        parameters: from(({ classOptions }) => classOptions.parameters),
        bindingMode: from(({ classOptions }) => classOptions.bindingMode),
        reclaimPolicy: from(({ classOptions }) => classOptions.reclaimPolicy),
        scheduling: from(({ classOptions }) => classOptions.scheduling),
        images: from(({ classOptions }) => classOptions.images),
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
        minReplicas: from(({ setOptions }) => setOptions.minReplicas),
        maxReplicas: from(({ setOptions }) => setOptions.maxReplicas),
        minAvailableReplicas: from(({ setOptions }) => setOptions.minAvailableReplicas),
        scaleDownCooldown: from(({ setOptions }) => setOptions.scaleDownCooldown),
        recycleStrategy: from(({ setOptions }) => setOptions.recycleStrategy),
        paused: from(({ setOptions }) => setOptions.paused),
        scaleInStrategy: from(({ setOptions }) => setOptions.scaleInStrategy),
        updateStrategy: from(({ setOptions }) => setOptions.updateStrategy),
        recycleRequestedAt: from(({ setOptions }) => timestampText(setOptions.recycleRequestedAt)),
        revisionHistoryLimit: from(({ setOptions }) => setOptions.revisionHistoryLimit),
        pinnedRevision: from(({ setOptions }) => setOptions.pinnedRevision),
        forecast: from(({ setOptions }) => setOptions.forecast),
        selector: from(({ setOptions }) => setOptions.selector),
        template: from(({ setOptions: { template } }) => ({
          ...template,
          drivers: [...(template.drivers ?? [])],
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
