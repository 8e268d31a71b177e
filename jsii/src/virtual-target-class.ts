import type { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import * as lib from 'virtual-exporters/cdk8s';
import type { BindingMode, ReclaimPolicy } from './enums';
import { registerInnerClass } from './convert';
import { buildInner, DEFAULT_CHILD_ID } from './errors';
import type { ConfigMapKeyReference, Images, Scheduling, Toleration } from './structs';

/** A VirtualTargetClass an ExporterSet can use: defined in this app, or imported by name. */
export interface IVirtualTargetClass extends IConstruct {
  /** The class's Kubernetes name. */
  readonly name: string;
  /** The class's namespace; undefined for a class imported by name (it must be in the set's namespace). */
  readonly namespace?: string;
}

/** The settings a class shares with `QemuPool`: binding, reclaim, placement and images. */
export interface ClassInstanceOptions {
  /** `IMMEDIATE` keeps warm Pods; `WAIT_FOR_FIRST_CONSUMER` starts a Pod only for a waiting lease. @default BindingMode.IMMEDIATE */
  readonly bindingMode?: BindingMode;
  /** What happens to an instance after its lease: `DELETE` destroys it, `RETAIN` keeps it for debugging. @default ReclaimPolicy.DELETE */
  readonly reclaimPolicy?: ReclaimPolicy;
  /** Placement and resources of rendered Pods. @default none */
  readonly scheduling?: Scheduling;
  /** Image overrides; a set's own `images` replace these. @default the provisioner's images */
  readonly images?: Images;
}

/** Props of a `VirtualTargetClass`. */
export interface VirtualTargetClassProps extends ClassInstanceOptions {
  /** Name, namespace and labels. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** The provisioner that makes the instances, e.g. `qemu.jumpstarter.dev`. */
  readonly provisioner: string;
  /** Provisioner settings (free-form JSON), deep-merged under each set's `parameters`. @default none */
  readonly parameters?: { [key: string]: any };
  /** Secret in the class's namespace holding backend credentials. @default none */
  readonly credentialsSecretName?: string;
  /** ConfigMap with the CA bundle for the exporter config. @default Jumpstarter's service CA */
  readonly caBundle?: ConfigMapKeyReference;
}

/**
 * An admin-owned backend profile (JEP-0014): provisioner, parameters, credentials, scheduling and
 * binding mode. Builds the TypeScript library's `VirtualTargetClass` as its child `Default`, so the
 * manifest is the one TypeScript users get (same name, same content).
 */
export class VirtualTargetClass extends Construct implements IVirtualTargetClass {
  /** A class defined elsewhere (another app, or by an admin), referenced by name. */
  public static fromName(scope: Construct, id: string, name: string): IVirtualTargetClass {
    return lib.VirtualTargetClass.fromName(scope, id, name);
  }

  /** The class's Kubernetes name. */
  public readonly name: string;
  /** The class's namespace (the chart's unless given). */
  public readonly namespace?: string;
  /** The provisioner that makes the instances. */
  public readonly provisioner: string;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;
  private readonly inner: lib.VirtualTargetClass;

  constructor(scope: Construct, id: string, props: VirtualTargetClassProps) {
    super(scope, id);
    this.inner = buildInner(this, () => new lib.VirtualTargetClass(this, DEFAULT_CHILD_ID, props));
    registerInnerClass(this, this.inner);
    this.name = this.inner.name;
    this.namespace = this.inner.namespace;
    this.provisioner = this.inner.provisioner;
    this.resource = this.inner.resource;
  }

  /** Lets rendered Pods run on nodes with this taint. */
  public addToleration(toleration: Toleration): void {
    this.inner.addToleration(toleration);
  }

  /** Restricts rendered Pods to nodes with this label. */
  public addNodeSelector(key: string, value: string): void {
    this.inner.addNodeSelector(key, value);
  }
}
