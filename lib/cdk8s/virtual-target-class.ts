import { ApiObject, Chart, Lazy, type ApiObjectMetadata } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import * as l1 from '../../imports/virtualtarget.jumpstarter.dev';
import type {
  BindingMode,
  ConfigMapKeyReference,
  Images,
  JsonObject,
  ReclaimPolicy,
  Scheduling,
  Toleration,
  VirtualTargetClass as VirtualTargetClassObject,
} from '../api';
import { validateVirtualTargetClass } from '../core/validate-virtual-target-class';
import { buildVirtualTargetClass } from '../manifests/virtual-target-class';
import { issueLines } from '../manifests/messages';
import { virtualTargetClassProp as classProp } from '../manifests/prop-paths';
import { constructError } from './errors';

/** A VirtualTargetClass an ExporterSet can use: defined in this app, or imported by name. */
export interface IVirtualTargetClass extends IConstruct {
  readonly name: string;
  /** Undefined for a class imported by name: it is assumed to live in the set's namespace. */
  readonly namespace?: string;
  /** The class as it will be synthesized, when it is defined in this app. */
  toManifest(): VirtualTargetClassObject | undefined;
}

export interface VirtualTargetClassProps {
  /** Name, namespace and labels. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
  /** The provisioner that realises instances, e.g. `qemu.jumpstarter.dev`. */
  readonly provisioner: string;
  /** Provisioner settings, deep-merged under each set's `parameters`. @default none */
  readonly parameters?: JsonObject;
  /** Secret in the class's namespace holding backend credentials. @default none */
  readonly credentialsSecretName?: string;
  /** `Immediate` keeps warm Pods; `WaitForFirstConsumer` starts a Pod only for a waiting lease. @default "Immediate" */
  readonly bindingMode?: BindingMode;
  /** @default "Delete" */
  readonly reclaimPolicy?: ReclaimPolicy;
  /** Placement and resources of rendered Pods. @default none */
  readonly scheduling?: Scheduling;
  /** ConfigMap with the CA bundle for the exporter config. @default Jumpstarter's service CA */
  readonly caBundle?: ConfigMapKeyReference;
  /** Image overrides; a set's own `images` replace these. @default the provisioner's images */
  readonly images?: Images;
}

type Quantities = Readonly<Record<string, string | number>> | undefined;

// The generated L1 wraps int-or-string quantities in value classes; its mapper reads `.value`.
function wrapQuantities<T>(q: Quantities, wrap: (v: string | number) => T): Record<string, T> | undefined {
  if (!q) return undefined;
  return Object.fromEntries(Object.entries(q).map(([k, v]) => [k, wrap(v)]));
}

/** Wire spec → the generated L1's props (identical but for quantity wrappers). */
function toL1Spec(spec: VirtualTargetClassObject['spec']): l1.VirtualTargetClassSpec {
  const resources = spec.scheduling?.resources;
  const scheduling = spec.scheduling && {
    ...spec.scheduling,
    resources: resources && {
      ...resources,
      limits: wrapQuantities(resources.limits, (v) =>
        typeof v === 'number'
          ? l1.VirtualTargetClassSpecSchedulingResourcesLimits.fromNumber(v)
          : l1.VirtualTargetClassSpecSchedulingResourcesLimits.fromString(v),
      ),
      requests: wrapQuantities(resources.requests, (v) =>
        typeof v === 'number'
          ? l1.VirtualTargetClassSpecSchedulingResourcesRequests.fromNumber(v)
          : l1.VirtualTargetClassSpecSchedulingResourcesRequests.fromString(v),
      ),
    },
  };
  return { ...spec, scheduling } as unknown as l1.VirtualTargetClassSpec;
}

/**
 * An admin-owned backend profile (JEP-0014): provisioner, parameters, credentials, scheduling,
 * binding mode. Owns one generated L1 child, `Resource`, built lazily so `add*` calls after
 * construction are included.
 */
export class VirtualTargetClass extends Construct implements IVirtualTargetClass {
  /** A class defined elsewhere (another app, or by an admin), referenced by name. */
  public static fromName(scope: Construct, id: string, name: string): IVirtualTargetClass {
    return new ImportedVirtualTargetClass(scope, id, name);
  }

  public readonly name: string;
  public readonly namespace?: string;
  public readonly provisioner: string;
  /** The generated L1 object; an escape hatch for JSON patches. */
  public readonly resource: ApiObject;
  private readonly props: VirtualTargetClassProps;
  private readonly tolerations: Toleration[];
  private readonly nodeSelector: Record<string, string>;

  constructor(scope: Construct, id: string, props: VirtualTargetClassProps) {
    super(scope, id);
    this.props = props;
    this.provisioner = props.provisioner;
    this.tolerations = [...(props.scheduling?.tolerations ?? [])];
    this.nodeSelector = { ...(props.scheduling?.nodeSelector ?? {}) };
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.resource = new l1.VirtualTargetClass(this, 'Resource', {
      metadata: { ...props.metadata, namespace: this.namespace },
      spec: Lazy.any({ produce: () => toL1Spec(this.toManifest().spec) }),
    });
    this.name = this.resource.name;

    const issues = validateVirtualTargetClass(this.toManifest());
    if (issues.length > 0) throw constructError(this, 'VirtualTargetClass', issues, classProp);
    // Re-checked at synth: add* calls may change the object after construction.
    this.node.addValidation({
      validate: () => issueLines(validateVirtualTargetClass(this.toManifest()), classProp),
    });
  }

  /** Lets rendered Pods run on nodes with this taint. */
  public addToleration(toleration: Toleration): void {
    this.tolerations.push(toleration);
  }

  /** Restricts rendered Pods to nodes with this label. */
  public addNodeSelector(key: string, value: string): void {
    this.nodeSelector[key] = value;
  }

  public toManifest(): VirtualTargetClassObject {
    const p = this.props;
    const scheduling: Scheduling | undefined =
      p.scheduling || this.tolerations.length > 0 || Object.keys(this.nodeSelector).length > 0
        ? {
            ...p.scheduling,
            nodeSelector: Object.keys(this.nodeSelector).length > 0 ? { ...this.nodeSelector } : undefined,
            tolerations: this.tolerations.length > 0 ? [...this.tolerations] : undefined,
          }
        : undefined;
    return buildVirtualTargetClass({
      name: this.name ?? p.metadata?.name ?? '',
      namespace: this.namespace,
      labels: p.metadata?.labels,
      annotations: p.metadata?.annotations,
      provisioner: p.provisioner,
      parameters: p.parameters,
      credentialsSecretName: p.credentialsSecretName,
      bindingMode: p.bindingMode,
      reclaimPolicy: p.reclaimPolicy,
      scheduling,
      caBundle: p.caBundle,
      images: p.images,
    });
  }
}

class ImportedVirtualTargetClass extends Construct implements IVirtualTargetClass {
  public readonly namespace = undefined;
  constructor(
    scope: Construct,
    id: string,
    public readonly name: string,
  ) {
    super(scope, id);
  }
  public toManifest(): undefined {
    return undefined;
  }
}
