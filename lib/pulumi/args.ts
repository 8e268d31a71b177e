import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../core/issue';
import { invalidArgsMessage, issueLines, type PropPathMapper } from '../manifests/messages';
import { withObjectMeta, type ObjectMetaInput } from '../manifests/object-meta-input';

/** The package part of every component's type token: `virtual-exporters:index:<Name>`. */
export const TYPE_PREFIX = 'virtual-exporters:index:';

/** A map of strings whose values may come from other resources. */
export type StringMapInput = pulumi.Input<Record<string, pulumi.Input<string>>>;

/**
 * A framework-neutral input's fields as Inputs, with their docs and optionality. `Nested` gives the
 * fields whose parts may be Inputs too (label maps, driver lists), as the field's type without the outer Input.
 */
export type InputsOf<
  T,
  Nested extends { readonly [K in keyof Nested]: K extends keyof T ? unknown : never } = Record<never, never>,
> = {
  readonly [K in keyof T]: pulumi.Input<NonNullable<K extends keyof Nested ? Nested[K] : T[K]>>;
};

/** Name, namespace, labels and annotations of the object a component creates. */
export interface ObjectMetadataArgs {
  /** The Kubernetes name. @default the component's name */
  readonly name?: pulumi.Input<string>;
  /** @default the Kubernetes provider's namespace */
  readonly namespace?: pulumi.Input<string>;
  /** @default none */
  readonly labels?: StringMapInput;
  /** @default none */
  readonly annotations?: StringMapInput;
}

/**
 * True when `value` holds no Output, Promise or Resource at any depth: its rules can be checked in the
 * constructor, so a mistake fails at the line that made it, as it does in cdk8s.
 */
export function isPlain(value: unknown): boolean {
  // Iterative: args are user data of any depth; each object is looked at once.
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    if (pulumi.Output.isInstance(item) || pulumi.Resource.isInstance(item)) return false;
    if (typeof (item as { then?: unknown }).then === 'function') return false;
    stack.push(...Object.values(item));
  }
  return true;
}

/** Every Input inside `args`, at any depth, resolved. */
export function resolve<T>(args: T): pulumi.Output<pulumi.Unwrap<T>> {
  return pulumi.output(args as pulumi.Input<T>) as pulumi.Output<pulumi.Unwrap<T>>;
}

/**
 * The error a component throws for invalid args: `[<type>::<name>] invalid <Kind>: <prop>=<value>:
 * <rule>`. `<type>::<name>` is the tail of the component's URN, as `pulumi stack` lists it; the lines
 * after the prefix are the ones the cdk8s construct prints for the same props.
 */
export function invalidArgsError(
  type: string,
  name: string,
  kind: string,
  issues: readonly ValidationIssue[],
  toProp: PropPathMapper,
): Error {
  return new Error(invalidArgsMessage(`${type}::${name}`, kind, issueLines(issues, toProp)));
}

/**
 * The component's own `dependsOn` plus `extra`, for a child: Pulumi does not pass a component's
 * `dependsOn` on to its children, so each child must list it to wait for, e.g., the CRDs.
 */
export function dependsOnWith(
  base: pulumi.ResourceOptions['dependsOn'],
  extra: readonly pulumi.Resource[] = [],
): pulumi.ResourceOptions['dependsOn'] {
  if (base === undefined) return extra.length > 0 ? [...extra] : undefined;
  if (extra.length === 0) return base;
  return pulumi
    .output(base as pulumi.Input<pulumi.Input<pulumi.Resource>[] | pulumi.Resource>)
    .apply((resolved) => [...(Array.isArray(resolved) ? resolved : [resolved]), ...extra]);
}

/**
 * The check every component runs on its resolved args (in the constructor when they are plain, when the
 * Outputs resolve otherwise): build the object, validate it, and throw the cdk8s construct's message.
 */
export function checkedBuild<A, M>(
  component: { readonly type: string; readonly name: string; readonly kind: string },
  build: (args: A) => M,
  validate: (manifest: M) => readonly ValidationIssue[],
  toProp: PropPathMapper,
): (args: A) => M {
  return (args) => {
    const manifest = build(args);
    const issues = validate(manifest);
    if (issues.length > 0)
      throw invalidArgsError(component.type, component.name, component.kind, issues, toProp);
    return manifest;
  };
}

/** Resolved args as a framework-neutral input: `metadata` split off; the object takes the component's name unless it names one. */
export function inputWithMetadata<O extends object>(
  args: O & { readonly metadata?: pulumi.Unwrap<ObjectMetadataArgs> },
  componentName: string,
): ObjectMetaInput & Omit<O, 'metadata'> {
  const { metadata, ...options } = args;
  return withObjectMeta(options, metadata, metadata?.name ?? componentName, metadata?.namespace);
}
