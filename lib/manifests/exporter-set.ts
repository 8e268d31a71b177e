import {
  API_VERSION,
  Defaults,
  Kinds,
  type DriverConfig,
  type ExporterSet,
  type Images,
  type JsonObject,
  type LabelSelector,
  type RecycleStrategy,
} from '../api';
import { withDerivedName } from '../core/drivers';
import { compact, nonEmpty } from './compact';

/** Framework-neutral description of an ExporterSet; the front ends map their props onto it. */
export interface ExporterSetInput {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly virtualTargetClassName: string;
  readonly minReplicas?: number;
  readonly maxReplicas?: number;
  readonly minAvailableReplicas?: number;
  /** Go-style duration text, e.g. `5m`. */
  readonly scaleDownCooldown?: string;
  readonly recycleStrategy?: RecycleStrategy;
  readonly parameters?: JsonObject;
  readonly images?: Images;
  /** Derived from the template labels when absent. */
  readonly selector?: LabelSelector;
  readonly template: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly drivers?: readonly DriverConfig[];
  };
}

/**
 * The selector a set uses when none is given: exactly its template labels, so the set selects what
 * it creates and nothing else. Empty labels give an empty selector, which validation rejects
 * at synth time because it would select every Exporter in the namespace.
 */
export function selectorFromTemplateLabels(
  labels: Readonly<Record<string, string>> | undefined,
): LabelSelector {
  return { matchLabels: { ...(labels ?? {}) } };
}

/**
 * Builds the wire object, with the CRD defaults and the derived driver names written out, so the
 * manifest says what it means and upstream's CRDs admit it too.
 */
export function buildExporterSet(input: ExporterSetInput): ExporterSet {
  return compact({
    apiVersion: API_VERSION,
    kind: Kinds.ExporterSet,
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: nonEmpty(input.labels),
      annotations: nonEmpty(input.annotations),
    },
    spec: {
      minReplicas: input.minReplicas ?? Defaults.minReplicas,
      maxReplicas: input.maxReplicas ?? Defaults.maxReplicas,
      minAvailableReplicas: input.minAvailableReplicas ?? Defaults.minAvailableReplicas,
      scaleDownCooldown: input.scaleDownCooldown ?? Defaults.scaleDownCooldown,
      recycleStrategy: input.recycleStrategy ?? Defaults.recycleStrategy,
      virtualTargetClassName: input.virtualTargetClassName,
      parameters: input.parameters,
      images: input.images,
      selector: input.selector ?? selectorFromTemplateLabels(input.template.labels),
      template: {
        metadata: {
          labels: { ...(input.template.labels ?? {}) },
          annotations: nonEmpty(input.template.annotations),
        },
        // Named as upstream's CRD requires: a missing name is written out as derived.
        spec: { drivers: (input.template.drivers ?? []).map(withDerivedName) },
      },
    },
  });
}
