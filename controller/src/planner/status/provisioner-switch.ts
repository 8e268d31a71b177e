/**
 * §3.13 a class switched to another provisioner while the set ran: `ProvisionerSwitched=True` names
 * the provisioner whose controller runs the set now. The controller that made instances of the set
 * records it before it lets go (handover.ts); once it is there, the controller of the class's
 * provisioner keeps it up to date (a later switch, or one back). Its words depend on the class alone,
 * so whichever controller writes it writes the same, and no two controllers undo each other.
 */
import {
  canonicalJson,
  ConditionReasons,
  ConditionTypes,
  isPlainObject,
  type Condition,
  type ExporterSetStatus,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import { findCondition, setCondition, type ConditionInput } from '../model/conditions';
import { listOf } from '../model/wire-guards';
import type { World } from '../observe/world';

/** The condition for the class as it is now. */
export function switchCondition(cls: VirtualTargetClass): ConditionInput {
  const provisioner = cls.spec?.provisioner ?? '';
  return {
    type: ConditionTypes.ProvisionerSwitched,
    status: 'True',
    reason: ConditionReasons.ProvisionerChanged,
    message: `VirtualTargetClass "${cls.metadata?.name ?? ''}" was switched to provisioner "${provisioner}" while the set ran: the controller of "${provisioner}" runs the set now, and the controllers of other provisioners only drain the instances they made`,
  };
}

/** The condition as the class's controller reports it: undefined until a switch was recorded. */
export function switchConditionOf(world: World): ConditionInput | undefined {
  const recorded = findCondition(
    listOf<Condition>(world.set.status?.conditions),
    ConditionTypes.ProvisionerSwitched,
  );
  return recorded !== undefined && world.cls !== undefined ? switchCondition(world.cls) : undefined;
}

/**
 * The set's status with the switch to `cls`'s provisioner recorded, everything else as it is;
 * undefined when it says so already (nothing to write), or when the set has no status yet (its
 * required counters are the class's controller's to write).
 */
export function recordSwitch(world: World, cls: VirtualTargetClass): ExporterSetStatus | undefined {
  const { set, now } = world;
  if (!isPlainObject(set.status)) return undefined;
  const before = listOf<Condition>(set.status?.conditions);
  const conditions = setCondition(before, switchCondition(cls), now, set.metadata?.generation);
  return canonicalJson(before) === canonicalJson(conditions) ? undefined : { ...set.status, conditions };
}
