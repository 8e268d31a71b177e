import type { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import * as lib from 'virtual-exporters/cdk8s';
import { buildInner, DEFAULT_CHILD_ID } from './errors';
import { withoutUndefined } from './convert';
import type { LabelSelector } from './structs';

/**
 * What an ExporterOperation does: one of the controller's operations, or a provisioner-specific one
 * (`Operation.custom("qemu.jumpstarter.dev/Reflash")`), which the provisioner's controller carries out.
 */
export class Operation {
  /** The set replaces the instance (the warm buffer is kept). */
  public static readonly RECYCLE = new Operation('Recycle');
  /** The instance takes no new lease. */
  public static readonly DISABLE = new Operation('Disable');
  /** A disabled instance takes leases again. */
  public static readonly ENABLE = new Operation('Enable');
  /** The instance leaves the set. */
  public static readonly DRAIN = new Operation('Drain');

  /** A provisioner-specific operation, written `<provisioner-domain>/<Name>`. */
  public static custom(name: string): Operation {
    return new Operation(name);
  }

  private constructor(
    /** The operation as written in `spec.operation`. */
    public readonly name: string,
  ) {}
}

/** Props of an `ExporterOperation`: its target is exactly one of `exporterName` and `exporterSetName`. */
export interface ExporterOperationProps {
  /** Name, namespace and labels. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** What to do. */
  readonly operation: Operation;
  /** The one instance (Exporter) to operate on. @default none */
  readonly exporterName?: string;
  /** The set whose instances `selector` picks (one child operation each). @default none */
  readonly exporterSetName?: string;
  /** With `exporterSetName`: the labels of the instances to operate on. @default every instance of the set */
  readonly selector?: LabelSelector;
  /** Settings of the operation, for provisioner-specific operations. @default none */
  readonly parameters?: { [key: string]: string };
  /** Seconds from its start after which an unfinished operation fails. @default no deadline */
  readonly activeDeadlineSeconds?: number;
  /** Seconds after it finished after which the controller deletes it. @default kept */
  readonly ttlSecondsAfterFinished?: number;
}

/**
 * A one-off operation on one instance of an ExporterSet, or on the instances a selector picks
 * (Recycle, Disable, Enable, Drain): the companion controller carries it out without taking a leased
 * instance away. Its spec is immutable once applied; to run it again, give it a new name. Builds the
 * TypeScript library's `ExporterOperation` as its child `Default`.
 */
export class ExporterOperation extends Construct {
  /** The operation's Kubernetes name. */
  public readonly name: string;
  /** Its namespace (the chart's unless given). */
  public readonly namespace?: string;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: ExporterOperationProps) {
    super(scope, id);
    const libProps = {
      ...props,
      operation: props.operation.name as lib.ExporterOperationProps['operation'],
    };
    const inner = buildInner(
      this,
      () => new lib.ExporterOperation(this, DEFAULT_CHILD_ID, withoutUndefined(libProps)),
    );
    this.name = inner.name;
    this.namespace = inner.namespace;
    this.resource = inner.resource;
  }
}
