import { ApiObject, Chart, Lazy, type ApiObjectMetadata } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import * as l1 from '../../imports/virtualtarget.jumpstarter.dev';
import type { Scheduling, Toleration, VirtualTargetClass as VirtualTargetClassObject } from '../api';
import { validateVirtualTargetClass } from '../core/validate-virtual-target-class';
import { withObjectMeta } from '../manifests/object-meta-input';
import {
  buildVirtualTargetClass,
  type VirtualTargetClassInput,
  type VirtualTargetClassOptions,
} from '../manifests/virtual-target-class';
import { issueLines } from '../manifests/messages';
import { virtualTargetClassProp as classProp } from '../manifests/prop-paths';
import { constructError } from './errors';

/** A VirtualTargetClass an ExporterSet can use: defined in this app, or imported by name. */
export interface IVirtualTargetClass extends IConstruct {
  readonly name: string;
  /** Undefined for a class imported by name: it is assumed to live in the set's namespace. */
  readonly namespace?: string;
}

/** The class's settings are the framework-neutral ones (`VirtualTargetClassOptions`, where each is documented); `metadata` is cdk8s's. */
export interface VirtualTargetClassProps extends VirtualTargetClassOptions {
  /** Name, namespace and labels. @default name generated from the construct path; the chart's namespace */
  readonly metadata?: ApiObjectMetadata;
}

/** The cdk8s props as the framework-neutral input, with the name and namespace the construct settled on. */
export function virtualTargetClassInput(
  props: VirtualTargetClassProps,
  name: string,
  namespace: string | undefined,
): VirtualTargetClassInput {
  const { metadata, ...options } = props;
  return withObjectMeta(options, metadata, name, namespace);
}

/** How each class defined in this app builds its object; a class imported by name has none. */
const manifestBuilders = new WeakMap<IVirtualTargetClass, () => VirtualTargetClassObject>();

/**
 * The class as it will be synthesized, when it is defined in this app; undefined for a class
 * imported by name, which the controller checks in the cluster.
 */
export function classManifestOf(cls: IVirtualTargetClass): VirtualTargetClassObject | undefined {
  return manifestBuilders.get(cls)?.();
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
  private readonly input: VirtualTargetClassInput;
  private readonly tolerations: Toleration[];
  private readonly nodeSelector: Record<string, string>;
  /** The manifest built for the current tolerations and node labels; dropped by `add*`. */
  private built?: VirtualTargetClassObject;

  constructor(scope: Construct, id: string, props: VirtualTargetClassProps) {
    super(scope, id);
    this.provisioner = props.provisioner;
    this.tolerations = [...(props.scheduling?.tolerations ?? [])];
    this.nodeSelector = { ...(props.scheduling?.nodeSelector ?? {}) };
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.resource = new l1.VirtualTargetClass(this, 'Resource', {
      metadata: { ...props.metadata, namespace: this.namespace },
      spec: Lazy.any({ produce: () => toL1Spec(this.manifest().spec) }),
    });
    this.name = this.resource.name;
    this.input = virtualTargetClassInput(props, this.name, this.namespace);
    manifestBuilders.set(this, () => this.manifest());

    const checked = this.manifest();
    const issues = validateVirtualTargetClass(checked);
    if (issues.length > 0) throw constructError(this, 'VirtualTargetClass', issues, classProp);
    // Re-checked at synth when add* calls changed the object after construction.
    this.node.addValidation({
      validate: () => {
        const current = this.manifest();
        return current === checked ? [] : issueLines(validateVirtualTargetClass(current), classProp);
      },
    });
  }

  /** Lets rendered Pods run on nodes with this taint. */
  public addToleration(toleration: Toleration): void {
    this.tolerations.push(toleration);
    this.built = undefined;
  }

  /** Restricts rendered Pods to nodes with this label. */
  public addNodeSelector(key: string, value: string): void {
    this.nodeSelector[key] = value;
    this.built = undefined;
  }

  /** The class as it will be synthesized: its props, with the tolerations and node labels added since (built once per change). */
  private manifest(): VirtualTargetClassObject {
    this.built ??= this.build();
    return this.built;
  }

  private build(): VirtualTargetClassObject {
    const given = this.input.scheduling;
    const scheduling: Scheduling | undefined =
      given || this.tolerations.length > 0 || Object.keys(this.nodeSelector).length > 0
        ? {
            ...given,
            nodeSelector: Object.keys(this.nodeSelector).length > 0 ? { ...this.nodeSelector } : undefined,
            tolerations: this.tolerations.length > 0 ? [...this.tolerations] : undefined,
          }
        : undefined;
    return buildVirtualTargetClass({ ...this.input, scheduling });
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
}
