import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import {
  API_VERSION,
  Kinds,
  type DriverConfig,
  type ExporterSet as ExporterSetObject,
  type JsonObject,
  type LabelSelector,
  type VirtualTargetClass as VirtualTargetClassObject,
} from '../api';
import { mergeParameters } from '../core/merge';
import { validateExporterSet } from '../core/validate-exporter-set';
import { derivedSelectorIssues, exporterSetClassIssues } from '../manifests/checks';
import { compact } from '../manifests/compact';
import {
  buildExporterSet,
  timestampText,
  type ExporterSetInput,
  type ExporterSetOptions,
  type ExporterTemplateInput,
} from '../manifests/exporter-set';
import { exporterSetProp } from '../manifests/prop-paths';
import {
  dependsOnWith,
  inputWithMetadata,
  invalidArgsError,
  isPlain,
  resolve,
  TYPE_PREFIX,
  type InputsOf,
  type ObjectMetadataArgs,
} from './args';
import { plainManifestOf, VirtualTargetClass } from './virtual-target-class';

/** What every instance of the set looks like: the framework-neutral template, as Inputs. */
export type ExporterTemplateArgs = InputsOf<
  ExporterTemplateInput,
  {
    labels: Record<string, pulumi.Input<string>>;
    annotations: Record<string, pulumi.Input<string>>;
    drivers: pulumi.Input<DriverConfig>[];
  }
>;

/**
 * The framework-neutral set settings (`ExporterSetOptions`, where each is documented) as Inputs (the
 * cooldown a Go duration string; the requested recycle an RFC 3339 string, or a plain `Date`: an Output
 * must hold the string, as Pulumi copies a Date inside an Output into an empty object); `metadata` is
 * Pulumi's.
 */
export interface ExporterSetArgs extends Omit<
  InputsOf<ExporterSetOptions, { template: ExporterTemplateArgs }>,
  'recycleRequestedAt'
> {
  /** `ExporterSetOptions.recycleRequestedAt`: RFC 3339 text (also from an Output), or a plain Date. @default none */
  readonly recycleRequestedAt?: pulumi.Input<string> | Date;
  /** Name, namespace and labels of the set. @default name: the component's name; namespace: the provider's */
  readonly metadata?: pulumi.Input<ObjectMetadataArgs>;
  /**
   * The backend profile, in the set's namespace: a `VirtualTargetClass` component of this program, or
   * the name of a class defined elsewhere (then only the cluster can check it).
   */
  readonly virtualTargetClass: VirtualTargetClass | pulumi.Input<string>;
}

type SetArgs = pulumi.Unwrap<Omit<ExporterSetArgs, 'virtualTargetClass'>>;

/** Resolved args as the framework-neutral input; `name` is the component's. */
export function exporterSetInput(args: SetArgs, name: string, className: string): ExporterSetInput {
  return inputWithMetadata({ virtualTargetClassName: className, ...args }, name);
}

/**
 * A warm pool of virtual exporters (JEP-0014), as one `ExporterSet` custom resource. The checks are the
 * cdk8s construct's: the set's own rules and, for a class component, the rules between set and class
 * (same namespace, known provisioner, merged parameters the provisioner accepts). They run in the
 * constructor when every arg is a plain value, otherwise when the Outputs resolve, where an invalid
 * value fails the deployment with the same message.
 */
export class ExporterSet extends pulumi.ComponentResource {
  public static readonly type = `${TYPE_PREFIX}ExporterSet`;

  /** The set as applied, after validation. */
  public readonly manifest: pulumi.Output<ExporterSetObject>;
  public readonly name: pulumi.Output<string>;
  /** Undefined when the provider's namespace applies. */
  public readonly namespace: pulumi.Output<string | undefined>;
  public readonly virtualTargetClassName: pulumi.Output<string>;
  /** The selector the set uses: the given one, or the template labels. */
  public readonly selector: pulumi.Output<LabelSelector>;
  /** Class parameters with the set's merged over them; undefined for a class referenced by name. */
  public readonly mergedParameters: pulumi.Output<JsonObject | undefined>;
  /** The class component, or the class name for a class defined elsewhere. */
  public readonly virtualTargetClass: VirtualTargetClass | pulumi.Input<string>;
  /** The custom resource. */
  public readonly resource: k8s.apiextensions.CustomResource;

  constructor(name: string, args: ExporterSetArgs, opts?: pulumi.ComponentResourceOptions) {
    super(ExporterSet.type, name, {}, opts);
    const { virtualTargetClass: cls, ...given } = args;
    // A Date as its RFC 3339 text before Pulumi resolves the args (see ExporterSetArgs).
    const setArgs =
      given.recycleRequestedAt instanceof Date
        ? { ...given, recycleRequestedAt: timestampText(given.recycleRequestedAt) }
        : given;
    this.virtualTargetClass = cls;
    const component = cls instanceof VirtualTargetClass ? cls : undefined;

    const check = (
      a: SetArgs,
      className: string,
      classManifest?: VirtualTargetClassObject,
    ): ExporterSetObject => {
      const input = exporterSetInput(a, name, className);
      const set = buildExporterSet(input);
      let issues = [...derivedSelectorIssues(input), ...validateExporterSet(set)];
      if (issues.length === 0 && classManifest) issues = exporterSetClassIssues(set, classManifest);
      if (issues.length > 0)
        throw invalidArgsError(ExporterSet.type, name, 'ExporterSet', issues, exporterSetProp);
      return set;
    };

    const knownClass = component ? plainManifestOf(component) : undefined;
    if (isPlain(setArgs) && (typeof cls === 'string' || knownClass)) {
      check(setArgs as SetArgs, knownClass?.metadata.name ?? (cls as string), knownClass);
    }

    const classManifest = component ? component.manifest : pulumi.output(undefined);
    const className = component ? component.name : pulumi.output(cls as pulumi.Input<string>);
    this.manifest = pulumi
      .all([resolve(setArgs), className, classManifest])
      .apply(([a, n, m]) => check(a as SetArgs, n, m));
    this.name = this.manifest.apply((s) => s.metadata.name as string); // the builder always names it
    this.namespace = this.manifest.apply((s) => s.metadata.namespace);
    this.virtualTargetClassName = this.manifest.apply((s) => s.spec.virtualTargetClassName);
    this.selector = this.manifest.apply((s) => s.spec.selector as LabelSelector);
    this.mergedParameters = pulumi
      .all([this.manifest, classManifest])
      .apply(([s, c]) => (c ? compact(mergeParameters(c.spec.parameters, s.spec.parameters)) : undefined));

    this.resource = new k8s.apiextensions.CustomResource(
      name,
      {
        apiVersion: API_VERSION,
        kind: Kinds.ExporterSet,
        metadata: this.manifest.apply((s) => s.metadata as k8s.types.input.meta.v1.ObjectMeta),
        spec: this.manifest.apply((s) => s.spec),
      },
      // The class first: a set whose class is missing reports VirtualTargetClassNotFound until it exists.
      { parent: this, dependsOn: dependsOnWith(opts?.dependsOn, component ? [component.resource] : []) },
    );
    this.registerOutputs({
      name: this.name,
      namespace: this.namespace,
      virtualTargetClassName: this.virtualTargetClassName,
      selector: this.selector,
      mergedParameters: this.mergedParameters,
    });
  }
}
