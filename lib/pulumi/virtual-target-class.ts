import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import {
  API_VERSION,
  Kinds,
  type JsonObject,
  type VirtualTargetClass as VirtualTargetClassObject,
} from '../api';
import { validateVirtualTargetClass } from '../core/validate-virtual-target-class';
import { virtualTargetClassProp } from '../manifests/prop-paths';
import {
  buildVirtualTargetClass,
  type VirtualTargetClassInput,
  type VirtualTargetClassOptions,
} from '../manifests/virtual-target-class';
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

/** The framework-neutral class settings (`VirtualTargetClassOptions`, where each is documented) as Inputs; `metadata` is Pulumi's. */
export interface VirtualTargetClassArgs extends InputsOf<VirtualTargetClassOptions> {
  /** Name, namespace, labels and annotations. @default name: the component's name; namespace: the provider's */
  readonly metadata?: pulumi.Input<ObjectMetadataArgs>;
}

/** Resolved args as the framework-neutral input; `name` is the component's. */
export function virtualTargetClassInput(
  args: pulumi.Unwrap<VirtualTargetClassArgs>,
  name: string,
): VirtualTargetClassInput {
  return inputWithMetadata(args, name);
}

/** Classes whose args were plain values: an ExporterSet using one can check its class at once. */
const plainManifests = new WeakMap<VirtualTargetClass, VirtualTargetClassObject>();

/** The class object, when it was known at construction (no Inputs were Outputs). */
export function plainManifestOf(cls: VirtualTargetClass): VirtualTargetClassObject | undefined {
  return plainManifests.get(cls);
}

/**
 * An admin-owned backend profile (JEP-0014), as one `VirtualTargetClass` custom resource. Args that
 * are plain values are checked in the constructor; args holding Outputs are checked when they resolve,
 * and an invalid value then fails the deployment with the same message.
 */
export class VirtualTargetClass extends pulumi.ComponentResource {
  public static readonly type = `${TYPE_PREFIX}VirtualTargetClass`;

  /** The class as applied, after validation. */
  public readonly manifest: pulumi.Output<VirtualTargetClassObject>;
  /** The Kubernetes name: what sets put in `virtualTargetClassName`. */
  public readonly name: pulumi.Output<string>;
  /** Undefined when the provider's namespace applies. */
  public readonly namespace: pulumi.Output<string | undefined>;
  public readonly provisioner: pulumi.Output<string>;
  /** The class parameters (`{}` when none), the base a set's parameters are merged over. */
  public readonly parameters: pulumi.Output<JsonObject>;
  /** The custom resource. */
  public readonly resource: k8s.apiextensions.CustomResource;

  constructor(name: string, args: VirtualTargetClassArgs, opts?: pulumi.ComponentResourceOptions) {
    super(VirtualTargetClass.type, name, {}, opts);
    const check = checkedBuild(
      { type: VirtualTargetClass.type, name, kind: 'VirtualTargetClass' },
      (a: pulumi.Unwrap<VirtualTargetClassArgs>) => buildVirtualTargetClass(virtualTargetClassInput(a, name)),
      validateVirtualTargetClass,
      virtualTargetClassProp,
    );
    if (isPlain(args)) plainManifests.set(this, check(args as pulumi.Unwrap<VirtualTargetClassArgs>));

    this.manifest = resolve(args).apply(check);
    this.name = this.manifest.apply((m) => m.metadata.name as string); // the builder always names it
    this.namespace = this.manifest.apply((m) => m.metadata.namespace);
    this.provisioner = this.manifest.apply((m) => m.spec.provisioner);
    this.parameters = this.manifest.apply((m) => m.spec.parameters ?? {});
    this.resource = new k8s.apiextensions.CustomResource(
      name,
      {
        apiVersion: API_VERSION,
        kind: Kinds.VirtualTargetClass,
        metadata: this.manifest.apply((m) => m.metadata as k8s.types.input.meta.v1.ObjectMeta),
        spec: this.manifest.apply((m) => m.spec),
      },
      { parent: this, dependsOn: dependsOnWith(opts?.dependsOn) },
    );
    this.registerOutputs({
      name: this.name,
      namespace: this.namespace,
      provisioner: this.provisioner,
      parameters: this.parameters,
    });
  }
}
