/**
 * The checks a front end runs on its props, beyond each object's own validator: what the cdk8s
 * constructs check at construction and synth, and the Pulumi components at construction or when their
 * Inputs resolve. One implementation, so both front ends reject the same props with the same words.
 */
import type { ExporterSet, LabelSelector, VirtualTargetClass } from '../api';
import type { ValidationIssue } from '../core/issue';
import { validateExporterSet } from '../core/validate-exporter-set';
import { validateExporterSetReferences } from '../core/validate-references';
import { validateVirtualTargetClass } from '../core/validate-virtual-target-class';
import { getProvisioner, knownProvisionerNames, RESERVED_PROVISIONERS } from '../provisioners/registry';
import { buildQemuPool, type QemuPoolInput } from './qemu-pool';

/**
 * A selector derived from no labels would be `{}`, which selects every Exporter in the namespace:
 * the CRD allows it, but as a default it is never what the author meant.
 */
export function derivedSelectorIssues(props: {
  readonly selector?: LabelSelector;
  readonly template: { readonly labels?: Readonly<Record<string, string>> };
}): ValidationIssue[] {
  if (props.selector !== undefined || Object.keys(props.template.labels ?? {}).length > 0) return [];
  return [
    {
      path: 'spec.template.metadata.labels',
      value: props.template.labels,
      message:
        'give the instances at least one label (leases select on labels) or an explicit selector; ' +
        'a selector derived from no labels would select every Exporter in the namespace',
    },
  ];
}

/**
 * Rules between a set and a class defined in the same app or program: same namespace, a known
 * provisioner, and merged parameters the provisioner accepts. Both objects are assumed to have passed
 * their own validators.
 */
export function exporterSetClassIssues(set: ExporterSet, cls: VirtualTargetClass): ValidationIssue[] {
  const classNamespace = cls.metadata?.namespace;
  const setNamespace = set.metadata?.namespace;
  if (classNamespace !== setNamespace) {
    return [
      {
        path: 'spec.virtualTargetClassName',
        value: cls.metadata?.name,
        message:
          `the class is in namespace ${JSON.stringify(classNamespace ?? '')} but the set is in ` +
          `${JSON.stringify(setNamespace ?? '')}; a set may only use a class in its own namespace, ` +
          'so define the class there or move the set',
      },
    ];
  }
  return validateExporterSetReferences(set, cls, getProvisioner, {
    reservedProvisioners: RESERVED_PROVISIONERS,
    knownProvisioners: knownProvisionerNames(),
  });
}

/**
 * Everything a QEMU pool can get wrong, in wire paths of its class and set (map them with
 * `qemuPoolProp`): the derived selector, both objects' own rules, then — when those pass — the QEMU
 * provisioner's parameter rules on the merged parameters.
 */
export function qemuPoolIssues(input: QemuPoolInput): ValidationIssue[] {
  const preview = buildQemuPool(input);
  const issues = [
    ...derivedSelectorIssues({ selector: input.selector, template: { labels: input.labels } }),
    ...validateVirtualTargetClass(preview.virtualTargetClass),
    ...validateExporterSet(preview.exporterSet),
  ];
  if (issues.length > 0) return issues;
  return validateExporterSetReferences(preview.exporterSet, preview.virtualTargetClass, getProvisioner, {
    reservedProvisioners: RESERVED_PROVISIONERS,
    knownProvisioners: knownProvisionerNames(),
  });
}
