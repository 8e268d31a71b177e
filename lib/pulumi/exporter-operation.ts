import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { API_VERSION, Kinds, type ExporterOperation as ExporterOperationObject } from '../api';
import { validateExporterOperation } from '../core/validate-exporter-operation';
import {
  buildExporterOperation,
  type ExporterOperationInput,
  type ExporterOperationOptions,
} from '../manifests/exporter-operation';
import { exporterOperationProp } from '../manifests/prop-paths';
import {
  checkedBuild,
  dependsOnWith,
  inputWithMetadata,
  isPlain,
  resolve,
  TYPE_PREFIX,
  type InputsOf,
  type ObjectMetadataArgs,
} from './args';

/** The framework-neutral operation settings (`ExporterOperationOptions`) as Inputs; `metadata` is Pulumi's. */
export interface ExporterOperationArgs extends InputsOf<ExporterOperationOptions> {
  /** Name, namespace, labels and annotations. @default name: the component's name; namespace: the provider's */
  readonly metadata?: pulumi.Input<ObjectMetadataArgs>;
}

/** Resolved args as the framework-neutral input; `name` is the component's. */
export function exporterOperationInput(
  args: pulumi.Unwrap<ExporterOperationArgs>,
  name: string,
): ExporterOperationInput {
  return inputWithMetadata(args, name);
}

/**
 * A one-off operation (Recycle, Disable, Enable, Drain) on an ExporterSet's instance or instances, as
 * one `ExporterOperation` custom resource. Plain args are checked in the constructor, args holding
 * Outputs when they resolve, with the same messages. The spec is immutable once applied: Pulumi
 * replaces the resource when it changes (`replaceOnChanges`).
 */
export class ExporterOperation extends pulumi.ComponentResource {
  public static readonly type = `${TYPE_PREFIX}ExporterOperation`;

  /** The operation as applied, after validation. */
  public readonly manifest: pulumi.Output<ExporterOperationObject>;
  public readonly name: pulumi.Output<string>;
  /** Undefined when the provider's namespace applies. */
  public readonly namespace: pulumi.Output<string | undefined>;
  /** The custom resource. */
  public readonly resource: k8s.apiextensions.CustomResource;

  constructor(name: string, args: ExporterOperationArgs, opts?: pulumi.ComponentResourceOptions) {
    super(ExporterOperation.type, name, {}, opts);
    const check = checkedBuild(
      { type: ExporterOperation.type, name, kind: 'ExporterOperation' },
      (a: pulumi.Unwrap<ExporterOperationArgs>) => buildExporterOperation(exporterOperationInput(a, name)),
      validateExporterOperation,
      exporterOperationProp,
    );
    if (isPlain(args)) check(args as pulumi.Unwrap<ExporterOperationArgs>);

    this.manifest = resolve(args).apply(check);
    this.name = this.manifest.apply((m) => m.metadata.name as string);
    this.namespace = this.manifest.apply((m) => m.metadata.namespace);
    this.resource = new k8s.apiextensions.CustomResource(
      name,
      {
        apiVersion: API_VERSION,
        kind: Kinds.ExporterOperation,
        metadata: this.manifest.apply((m) => m.metadata as k8s.types.input.meta.v1.ObjectMeta),
        spec: this.manifest.apply((m) => m.spec),
      },
      { parent: this, dependsOn: dependsOnWith(opts?.dependsOn), replaceOnChanges: ['spec'] },
    );
    this.registerOutputs({ name: this.name, namespace: this.namespace });
  }
}
