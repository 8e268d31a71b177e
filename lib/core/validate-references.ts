/**
 * Rules that need more than one object: the set's class exists in the set's
 * namespace, its provisioner is known, the merged parameters pass that provisioner's `validate`, and
 * the set does not choose the exporter image of a class with credentials.
 * Both objects are assumed to have passed their own validators.
 */
import { ProvisionerNames, type DriverConfig, type ExporterSet, type VirtualTargetClass } from '../api';
import { prefixIssues, type ValidationIssue } from './issue';
import { isAbsent } from './issue-collector';
import { nestingIssue } from './depth';
import { mergeParameters } from './merge';
import { isPlainObject } from './plain-object';

export interface ReferenceValidationOptions {
  /**
   * Provisioner names that are valid but have no implementation in this version (the JEP names
   * them): a class using one is accepted and its parameters are not checked.
   * @default every name in ProvisionerNames
   */
  readonly reservedProvisioners?: readonly string[];
  /** Names the lookup knows, listed in the message for an unknown provisioner. */
  readonly knownProvisioners?: readonly string[];
}

/**
 * What the check needs of a provisioner, so core stays free of the plug-ins (every `Provisioner` is
 * one): its name for messages, and `validate` for the merged parameters and the set's drivers.
 */
export interface ParameterValidator {
  readonly name: string;
  validate(parameters: unknown, context?: { readonly drivers?: readonly DriverConfig[] }): ValidationIssue[];
}

const CLASS_NAME_PATH = 'spec.virtualTargetClassName';

/**
 * Issues a provisioner finds in the drivers it was given as context (`ValidationContext.drivers`) already
 * carry the set's path (`spec.template.spec.drivers[0].name`); only parameter issues are re-pathed.
 */
const TEMPLATE_PATH_PREFIX = 'spec.template.';

/**
 * Issues for `set` given its class (undefined when it was not found) and a provisioner lookup; paths
 * are the set's (`spec.virtualTargetClassName`, `spec.parameters.resources.memory`).
 */
export function validateExporterSetReferences(
  set: ExporterSet,
  cls: VirtualTargetClass | undefined,
  lookup: (provisionerName: string) => ParameterValidator | undefined,
  options: ReferenceValidationOptions = {},
): ValidationIssue[] {
  const className = set.spec?.virtualTargetClassName;
  const setNamespace = set.metadata?.namespace;
  if (cls === undefined) {
    const where = setNamespace ? `namespace "${setNamespace}"` : "the set's namespace";
    return [
      {
        path: CLASS_NAME_PATH,
        value: className,
        message: `VirtualTargetClass "${className}" was not found in ${where}; create it there or fix virtualTargetClassName`,
      },
    ];
  }

  const issues: ValidationIssue[] = [];
  const clsName = cls.metadata?.name;
  if (clsName !== undefined && clsName !== className) {
    issues.push({
      path: CLASS_NAME_PATH,
      value: className,
      message: `names VirtualTargetClass "${className}" but the class given is "${clsName}"; pass the class the set names`,
    });
  }
  const clsNamespace = cls.metadata?.namespace;
  if (setNamespace && clsNamespace && setNamespace !== clsNamespace) {
    issues.push({
      path: CLASS_NAME_PATH,
      value: className,
      message: `VirtualTargetClass "${clsName ?? className}" is in namespace "${clsNamespace}" but the ExporterSet is in "${setNamespace}"; a set can only use a class in its own namespace, so create the class there`,
    });
  }

  issues.push(...credentialImageIssues(set, cls));

  const provisionerName = cls.spec?.provisioner;
  if (typeof provisionerName !== 'string' || provisionerName === '') return issues; // the class validator reports it
  const provisioner = lookup(provisionerName);
  if (provisioner === undefined) {
    const reserved = options.reservedProvisioners ?? Object.values(ProvisionerNames);
    if (reserved.includes(provisionerName)) return issues;
    const known = options.knownProvisioners;
    const list =
      known === undefined ? '' : `; known provisioners: ${known.length > 0 ? known.join(', ') : 'none'}`;
    issues.push({
      path: CLASS_NAME_PATH,
      value: className,
      message: `VirtualTargetClass "${clsName ?? className}" uses provisioner "${provisionerName}", which is not known${list}`,
    });
    return issues;
  }

  const classParameters = cls.spec?.parameters;
  const setParameters = set.spec?.parameters;
  // A non-object top level is reported by the class or set validator; merging it would mislead.
  if (!isObjectOrAbsent(classParameters) || !isObjectOrAbsent(setParameters)) return issues;
  // Too deep to merge safely: say so for whichever side it is, instead of validating.
  const tooDeep = [
    nestingIssue(`VirtualTargetClass "${clsName ?? className}" spec.parameters`, classParameters),
    nestingIssue('spec.parameters', setParameters),
  ].filter((issue) => issue !== undefined);
  if (tooDeep.length > 0) return [...issues, ...tooDeep];
  const merged = mergeParameters(classParameters, setParameters);
  let found: ValidationIssue[];
  try {
    found = provisioner.validate(merged, { drivers: set.spec?.template?.spec?.drivers });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    found = [
      { path: '', message: `provisioner ${provisioner.name} failed to validate the parameters: ${reason}` },
    ];
  }
  for (const issue of found) {
    issues.push(
      issue.path.startsWith(TEMPLATE_PATH_PREFIX) ? issue : prefixIssues('spec.parameters', [issue])[0],
    );
  }
  return issues;
}

/**
 * The exporter container alone receives the class's credentials (JEP-0014: "ExporterSet authors never
 * touch credentials"). A set that replaced the exporter image would choose the program those
 * credentials are handed to, so with a `credentialsSecretRef` on the class only the class may name
 * that image; the runtime image, which never sees them, stays the set's to choose.
 */
function credentialImageIssues(set: ExporterSet, cls: VirtualTargetClass): ValidationIssue[] {
  const secret = cls.spec?.credentialsSecretRef?.name;
  const image = set.spec?.images?.exporter?.image;
  if (!secret || isAbsent(image)) return [];
  return [
    {
      path: 'spec.images.exporter.image',
      value: image,
      message: `replaces the exporter image of VirtualTargetClass "${cls.metadata?.name}", whose credentials (Secret "${secret}") the exporter container receives; only the class may choose that image, so set it in the class's images`,
    },
  ];
}

function isObjectOrAbsent(value: unknown): boolean {
  return isAbsent(value) || isPlainObject(value);
}
