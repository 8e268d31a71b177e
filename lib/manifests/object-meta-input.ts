/** Name, namespace, labels and annotations of an object a builder writes. */
export interface ObjectMetaInput {
  readonly name: string;
  /** @default none: the object takes the namespace it is applied in */
  readonly namespace?: string;
  /** @default none */
  readonly labels?: Readonly<Record<string, string>>;
  /** @default none */
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * A front end's `metadata` as builder fields, with the name and namespace the front end settled on
 * (cdk8s generates names from the construct path; Pulumi takes the component's name).
 */
export function objectMetaInput(
  metadata:
    | {
        readonly labels?: Readonly<Record<string, string>>;
        readonly annotations?: Readonly<Record<string, string>>;
      }
    | undefined,
  name: string,
  namespace: string | undefined,
): ObjectMetaInput {
  return { name, namespace, labels: metadata?.labels, annotations: metadata?.annotations };
}
