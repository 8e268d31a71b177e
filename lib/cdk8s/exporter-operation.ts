import { Chart, Lazy, type ApiObject, type ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import * as l1 from '../../imports/virtualtarget.jumpstarter.dev';
import type { ExporterOperation as ExporterOperationObject } from '../api';
import { validateExporterOperation } from '../core/validate-exporter-operation';
import {
  buildExporterOperation,
  type ExporterOperationInput,
  type ExporterOperationOptions,
} from '../manifests/exporter-operation';
import { issueLines } from '../manifests/messages';
import { withObjectMeta } from '../manifests/object-meta-input';
import { exporterOperationProp } from '../manifests/prop-paths';
import { constructError } from './errors';

/** The operation's settings are the framework-neutral ones (`ExporterOperationOptions`); `metadata` is cdk8s's. */
export interface ExporterOperationProps extends ExporterOperationOptions {
  /** Name, namespace and labels. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
}

/** The cdk8s props as the framework-neutral input, with the name and namespace the construct settled on. */
export function exporterOperationInput(
  props: ExporterOperationProps,
  name: string,
  namespace: string | undefined,
): ExporterOperationInput {
  const { metadata, ...options } = props;
  return withObjectMeta(options, metadata, name, namespace);
}

/**
 * A one-off operation on one instance of an ExporterSet, or on the instances a selector picks
 * (Recycle, Disable, Enable, Drain): the companion controller carries it out without ever taking a
 * leased instance away. Owns one generated L1 child, `Resource`. Its spec is immutable once applied:
 * to run an operation again, give it a new name.
 */
export class ExporterOperation extends Construct {
  public readonly name: string;
  public readonly namespace?: string;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;
  private readonly input: ExporterOperationInput;

  constructor(scope: Construct, id: string, props: ExporterOperationProps) {
    super(scope, id);
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.resource = new l1.ExporterOperation(this, 'Resource', {
      metadata: { ...props.metadata, namespace: this.namespace },
      spec: Lazy.any({ produce: () => this.manifest().spec }),
    });
    this.name = this.resource.name;
    this.input = exporterOperationInput(props, this.name, this.namespace);
    const issues = validateExporterOperation(this.manifest());
    if (issues.length > 0) throw constructError(this, 'ExporterOperation', issues, exporterOperationProp);
    this.node.addValidation({
      validate: () => issueLines(validateExporterOperation(this.manifest()), exporterOperationProp),
    });
  }

  /** The operation as it will be synthesized. */
  public manifest(): ExporterOperationObject {
    return buildExporterOperation(this.input);
  }
}
