/**
 * §3.13 class and parameters, and the gates on new instances (existing ones keep serving):
 *
 * - a class of another provisioner: the set is not this controller's (`notOurs`) — no actions but the
 *   drain of the instances it made, and no status but the switch recorded (handover.ts);
 * - invalid merged parameters (`ParametersValid=False` with the provisioner's findings), a selector
 *   that does not select the template labels and a spec that breaks the set's own rules
 *   (`SpecValid=False`, spec/spec-checks.ts) create nothing;
 * - the §3.9 startup-failure backoff starts no new Pod;
 * - §3.20 a paused set creates and promotes nothing (spec/off-switch.ts), but completes and recycles
 *   the instances it has.
 *
 * A missing class changes nothing at all (standing-still.ts).
 */
import {
  formatIssue,
  validateExporterSetReferences,
  type Provisioner,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import type { World } from '../observe/world';
import { specChecks, type SpecChecks } from '../spec/spec-checks';
import type { StartupFailureState } from './startup-failures';

/** Why the set is not this controller's (its class names another provisioner); undefined when it is. */
export function notOurs(world: World): string | undefined {
  const { cls } = world;
  const provisioner = cls?.spec?.provisioner;
  if (cls === undefined || provisioner === world.provisioner.name) return undefined;
  return `VirtualTargetClass "${cls.metadata?.name}" uses provisioner "${provisioner}"; this controller runs "${world.provisioner.name}"`;
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
