/**
 * §3.13 class and parameters, and the gates on new instances (existing ones keep serving):
 *
 * - a class of another provisioner: the set is not this controller's — no status, and no actions but the
 *   drain of the instances it made (handover.ts);
 * - a missing class: `Available=False/VirtualTargetClassNotFound`, and no change at all;
 * - invalid merged parameters (`ParametersValid=False` with the provisioner's findings), a selector
 *   that does not select the template labels and a spec that breaks the set's own rules
 *   (`SpecValid=False`) create nothing — a set admitted by a CRD without our rules (a name too long for
 *   the set label, template labels or annotations Kubernetes refuses) would otherwise retry creates the
 *   API server always refuses;
 * - the §3.9 startup-failure backoff starts no new Pod;
 * - §3.20 a paused set creates and promotes nothing (off-switch.ts), but completes and recycles the
 *   instances it has.
 */
import {
  formatIssue,
  RuleMessages,
  SCHEDULES_PATH,
  validateExporterSet,
  validateExporterSetReferences,
  type ExporterSet,
  type Provisioner,
  type ValidationIssue,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { World } from './observe';
import { finishPlan, type Plan } from './plan-result';
import type { StartupFailureState } from './startup-failures';
import { persistedAsIs, statusInputs, type PassFacts } from './status';

/** Why the set is not this controller's (its class names another provisioner); undefined when it is. */
export function notOurs(world: World): string | undefined {
  const { cls } = world;
  const provisioner = cls?.spec?.provisioner;
  if (cls === undefined || provisioner === world.provisioner.name) return undefined;
  return `VirtualTargetClass "${cls.metadata?.name}" uses provisioner "${provisioner}"; this controller runs "${world.provisioner.name}"`;
}

/** The missing class: its name, and the finding (field, value, fix) for our own conditions. */
function missingClass(set: ExporterSet): { readonly name: string; readonly finding: string } {
  const [issue] = validateExporterSetReferences(set, undefined, () => undefined);
  const name = set.spec?.virtualTargetClassName ?? '';
  return { name, finding: issue ? formatIssue(issue) : `VirtualTargetClass "${name}" was not found` };
}

/** A set whose class is missing: conditions say so, nothing else changes. */
export function planClassMissing(world: World): Plan {
  return planStandingStill(world, { classMissing: missingClass(world.set) });
}

/**
 * A pass that changes nothing but the status: no instance is created, replaced or removed, and the
 * persisted fields stay as they are. `facts` says why (a missing class, an unknown pin).
 */
export function planStandingStill(
  world: World,
  facts: Pick<PassFacts, 'classMissing' | 'invalidParameters'>,
): Plan {
  const persisted = persistedAsIs(world);
  const inputs = statusInputs(world, {
    ...facts,
    spec: specChecks(world.set),
    scaling: { outdated: 0, startingNow: 0, rendering: 0, deferred: 0, leaving: 0 },
    health: {
      startupFailures: persisted.startupFailures,
      ...(persisted.lastStartupFailureTime !== undefined
        ? { lastStartupFailureTime: persisted.lastStartupFailureTime }
        : {}),
      backoffMs: 0,
    },
    plannedWrites: new Set(),
    persisted,
    creates: [],
  });
  return finishPlan(world, [], inputs, [], []);
}

/** Findings shown in a condition, at most; the rest are counted. */
const MAX_SHOWN_FINDINGS = 5;

/** What SpecValid reports. */
export interface SpecChecks {
  readonly selectorMatchesTemplate: boolean;
  /** The set's own rules it breaks (validateExporterSet), formatted; undefined when it keeps them. */
  readonly invalidSpec?: string;
  /**
   * The rules `spec.schedules` breaks, formatted: they stop no create (schedules.ts leaves out the
   * entries it cannot read and caps the rest), so the pool keeps its static buffer meanwhile.
   */
  readonly scheduleFindings?: string;
}

/** Issues as one message: the first few, and how many more. */
function findings(issues: readonly ValidationIssue[]): string | undefined {
  if (issues.length === 0) return undefined;
  const shown = issues.slice(0, MAX_SHOWN_FINDINGS).map(formatIssue).join('; ');
  const more = issues.length > MAX_SHOWN_FINDINGS ? `; and ${issues.length - MAX_SHOWN_FINDINGS} more` : '';
  return `${shown}${more}`;
}

/**
 * Whether the selector selects the template labels, and the set's own rules it breaks. The mismatch is
 * the cause only when the selector and the labels are valid (validateExporterSet says so only then): an
 * invalid key or value is reported as what it is, naming the key and the rule.
 */
export function specChecks(set: ExporterSet): SpecChecks {
  const found = validateExporterSet(set);
  const isMismatch = (issue: ValidationIssue) =>
    issue.path === 'spec.selector' && issue.message === RuleMessages.selectorMatchesTemplate;
  const isSchedule = (issue: ValidationIssue) =>
    issue.path === SCHEDULES_PATH || issue.path.startsWith(`${SCHEDULES_PATH}[`);
  const invalidSpec = findings(found.filter((issue) => !isMismatch(issue) && !isSchedule(issue)));
  const scheduleFindings = findings(found.filter(isSchedule));
  return {
    selectorMatchesTemplate: !found.some(isMismatch),
    ...(invalidSpec !== undefined ? { invalidSpec } : {}),
    ...(scheduleFindings !== undefined ? { scheduleFindings } : {}),
  };
}

/** The parameter findings of the provisioner, as one message; undefined when valid. */
export function parameterFindings(world: World, cls: VirtualTargetClass): string | undefined {
  const provisioner = world.provisioner;
  // validateExporterSetReferences reads only `name` and `validate` of the provisioner it looks up.
  const lookup = (name: string): Provisioner | undefined =>
    name === provisioner.name ? (provisioner as Provisioner) : undefined;
  const issues = validateExporterSetReferences(world.set, cls, lookup);
  return issues.length > 0 ? issues.map(formatIssue).join('; ') : undefined;
}

export interface Gates extends SpecChecks {
  /** The provisioner's findings, formatted; undefined when the parameters are valid. */
  readonly invalidParameters?: string;
  /** New Exporters may be created. */
  readonly canCreate: boolean;
  /** New Pods may start: creates with a Pod and promotions. */
  readonly canStartPods: boolean;
  /** Existing instances may get their Pod (§3.20: a paused set still completes and recycles them). */
  readonly canRenderPods: boolean;
}

export function gates(world: World, cls: VirtualTargetClass, startup: StartupFailureState): Gates {
  const invalidParameters = parameterFindings(world, cls);
  const checks = specChecks(world.set);
  const buildable =
    invalidParameters === undefined && checks.selectorMatchesTemplate && checks.invalidSpec === undefined;
  const canRenderPods = buildable && startup.backoffUntil === undefined;
  // §3.20: a paused set creates and promotes nothing.
  const canCreate = buildable && !world.spec.paused;
  return {
    ...checks,
    ...(invalidParameters !== undefined ? { invalidParameters } : {}),
    canCreate,
    canStartPods: canRenderPods && canCreate,
    canRenderPods,
  };
}
