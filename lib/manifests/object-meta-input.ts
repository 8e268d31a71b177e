import type { ObjectMeta } from '../api';
import { nonEmpty } from './compact';

/** Name, namespace, labels and annotations of an object a builder writes. */
export interface ObjectMetaInput {
  /** The Kubernetes name. */
  readonly name: string;
  /** @default none: the object takes the namespace it is applied in */
  readonly namespace?: string;
  /** @default none */
  readonly labels?: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** The object's metadata on the wire; empty label and annotation maps are left out. */
export function wireMetadata(input: ObjectMetaInput): ObjectMeta {
  return {
    name: input.name,
    namespace: input.namespace,
    labels: nonEmpty(input.labels),
    annotations: nonEmpty(input.annotations),
  };
}

/**
 * A front end's settings with its `metadata` as builder fields, under the name and namespace the front
 * end settled on (cdk8s generates names from the construct path; Pulumi takes the component's name).
 */
export function withObjectMeta<T extends object>(
  settings: T,
  metadata:
    | {
        readonly labels?: Readonly<Record<string, string>>;
        readonly annotations?: Readonly<Record<string, string>>;
      }
    | undefined,
  name: string,
  namespace: string | undefined,
): ObjectMetaInput & T {
  // Named fields first and the spread last: V8 copies fast into a literal that ends with the spread,
  // and slowly into one that adds fields after it (a measurable share of a large synthesis).
  return { name, namespace, labels: metadata?.labels, annotations: metadata?.annotations, ...settings };
}
