/**
 * Upstream-strict variants of our ExporterSet and VirtualTargetClass CRDs: upstream Jumpstarter's
 * schema and CEL rules only, as a cluster has them when its CRDs come from the Jumpstarter operator.
 * What we write (synthesized manifests) must be admitted by these too; the tests check that.
 *
 * They are made from ours by taking away what we add — the fields, constraints and rules listed
 * below — and by undoing our one relaxation: upstream requires every driver's `name`. Anything we
 * add to our CRDs and forget to list here stays in the strict variant, where the fact-table test
 * (test/crds/upstream-strict.test.ts) finds it.
 */
import { RuleMessages } from '../api/rules';
import { exporterSetCrd } from './exporter-set';
import type { CustomResourceDefinition, JSONSchemaProps, ValidationRule } from './schema';
import { virtualTargetClassCrd } from './virtual-target-class';

/** What one of our CRDs adds to upstream's, by schema path (`[*]` array items, `{*}` map values). */
interface Additions {
  /** Properties upstream does not have. */
  readonly fields: readonly string[];
  /** Keywords we add to fields upstream has. */
  readonly keywords: Readonly<Record<string, readonly (keyof JSONSchemaProps)[]>>;
  /** Printer columns upstream does not have (besides Age), by name. */
  readonly printerColumns?: readonly string[];
}

/** The CEL rules of ours that are upstream's, by message: every other rule is ours. */
const UPSTREAM_RULE_MESSAGES: ReadonlySet<string> = new Set([
  RuleMessages.minReplicasLeMax,
  RuleMessages.minAvailableLeMax,
  RuleMessages.driverTypeOrRef,
  RuleMessages.driverTypeRefExclusive,
  RuleMessages.driverRefNoConfig,
]);

/** Upstream's driver-name rule, which replaces our "not empty when given" rule. */
export const UPSTREAM_DRIVER_NAME_RULE: ValidationRule = {
  rule: 'has(self.name) && size(self.name) > 0',
  message: 'name is required',
};

const DRIVER_PATH = 'spec.template.spec.drivers[*]';

const EXPORTER_SET_ADDITIONS: Additions = {
  fields: [
    'spec.paused',
    'spec.recycleRequestedAt',
    'spec.scaleInStrategy',
    'spec.updateStrategy',
    'status.lastCompletedRecycle',
    'status.leaseWait',
    'status.startupP95Seconds',
    'spec.pinnedRevision',
    'spec.revisionHistoryLimit',
    'spec.forecast',
    'status.forecast',
    'spec.schedules',
    'status.schedules',
    'status.effectiveMinAvailableReplicas',
    'status.currentRevision',
    'status.pinnedRevision',
    'status.lastStartupFailureTime',
    'status.nextOrdinal',
    'status.observedGeneration',
    'status.pendingLeases',
    'status.scaleDownTarget',
    'status.scaleDownWindowStart',
    'status.standbyReplicas',
    'status.startingReplicas',
    'status.startupFailures',
    'status.templateRevision',
    'status.updatedReplicas',
  ],
  keywords: {
    // The size bounds that keep our CEL rules within the API server's cost budget (bounds.ts).
    'spec.parameters': ['type'],
    'spec.scaleDownCooldown': ['maxLength'],
    'spec.selector.matchExpressions': ['maxItems'],
    'spec.selector.matchExpressions[*].key': ['maxLength'],
    'spec.selector.matchExpressions[*].values': ['maxItems'],
    'spec.selector.matchExpressions[*].values[*]': ['maxLength'],
    'spec.selector.matchLabels': ['maxProperties'],
    'spec.selector.matchLabels{*}': ['maxLength'],
    'spec.template.metadata.annotations': ['maxProperties'],
    'spec.template.metadata.labels': ['maxProperties'],
    'spec.template.metadata.labels{*}': ['maxLength'],
    'spec.template.spec.drivers': ['maxItems'],
    'spec.template.spec.drivers[*].name': ['maxLength'],
    'spec.template.spec.drivers[*].ref': ['maxLength'],
    'spec.template.spec.drivers[*].type': ['maxLength'],
  },
  printerColumns: ['Warm-Hit', 'Wait-P95'],
};

const VIRTUAL_TARGET_CLASS_ADDITIONS: Additions = {
  fields: [
    'spec.scheduling.affinity',
    'spec.scheduling.priorityClassName',
    'spec.scheduling.runtimeClassName',
  ],
  keywords: { 'spec.parameters': ['type'] },
};

/** Our CRD with `additions` and our rules taken away, and a driver name required again. */
function upstreamStrict(ours: CustomResourceDefinition, additions: Additions): CustomResourceDefinition {
  const crd = structuredClone(ours) as CustomResourceDefinition;
  delete crd.spec.names.shortNames;
  delete crd.spec.names.categories;
  for (const version of crd.spec.versions) {
    version.additionalPrinterColumns = version.additionalPrinterColumns?.filter(
      (c) => c.name !== 'Age' && !(additions.printerColumns ?? []).includes(c.name),
    );
    strip(version.schema.openAPIV3Schema, '', additions);
  }
  return crd;
}

function strip(schema: JSONSchemaProps, path: string, additions: Additions): void {
  const at = (child: string) => (path ? `${path}.${child}` : child);
  for (const keyword of additions.keywords[path] ?? []) delete schema[keyword];
  const rules = (schema['x-kubernetes-validations'] ?? []).filter((r) =>
    UPSTREAM_RULE_MESSAGES.has(r.message ?? ''),
  );
  if (path === DRIVER_PATH) {
    rules.push(UPSTREAM_DRIVER_NAME_RULE);
    schema.required = ['name'];
    schema.properties!.name.description = 'Key of the driver in the exporter config; required.';
  }
  if (rules.length > 0) schema['x-kubernetes-validations'] = rules;
  else delete schema['x-kubernetes-validations'];

  for (const name of Object.keys(schema.properties ?? {})) {
    if (additions.fields.includes(at(name))) {
      delete schema.properties![name];
      continue;
    }
    strip(schema.properties![name], at(name), additions);
  }
  if (schema.items) strip(schema.items, `${path}[*]`, additions);
  if (typeof schema.additionalProperties === 'object') {
    strip(schema.additionalProperties, `${path}{*}`, additions);
  }
}

/** The ExporterSet CRD as upstream defines it: driver names required, none of our additions. */
export const upstreamStrictExporterSetCrd: CustomResourceDefinition = upstreamStrict(
  exporterSetCrd,
  EXPORTER_SET_ADDITIONS,
);

/** The VirtualTargetClass CRD as upstream defines it, without our scheduling fields. */
export const upstreamStrictVirtualTargetClassCrd: CustomResourceDefinition = upstreamStrict(
  virtualTargetClassCrd,
  VIRTUAL_TARGET_CLASS_ADDITIONS,
);

/** Both upstream-strict CRDs, for checking that what we write fits a cluster with upstream's CRDs. */
export const upstreamStrictCrds: readonly CustomResourceDefinition[] = [
  upstreamStrictVirtualTargetClassCrd,
  upstreamStrictExporterSetCrd,
];
