/**
 * Members, the pipeline's third step (plan.ts): the set's instances sorted into the ones the counting
 * keeps (members), the ones on their way out (leaving) and the ones whose ended Pod is replaced in
 * place (§3.8 recycle). Leased instances and ones disabled by hand are kept but never removed (§3.7,
 * §3.11); creates in flight that the cache does not show yet are kept too.
 */
import { instanceOrdinal, type ScaleReason } from 'virtual-exporters/internal';
import type { InstanceView } from '../observe/instance-view';
import type { World } from '../observe/world';
import { scaleInKey, type ScaleInOrder } from '../spec/scale-in-order';
import { recycleStep } from './recycle';

/** The role of a kept instance in the counting. */
export type MemberKind =
  /** Leased or disabled by hand: counts towards the floor only, never removed by scale-down. */
  | 'fixed'
  /** Ready, enabled, not leased: supply. */
  | 'available'
  /** Created, not ready yet, or its Pod being replaced: future supply. */
  | 'starting'
  /** Was ready, is not: counts towards the floor, not as supply. */
  | 'offline'
  /** CR only: supply only with WaitForFirstConsumer. */
  | 'standby';

/** One kept instance, real or planned, as the counting sees it. */
export interface Member {
  readonly name: string;
  readonly kind: MemberKind;
  readonly enabled: boolean;
  /** Built from the current template revision. */
  readonly current: boolean;
  /** Epoch ms; planned and in-flight creates use +Infinity (newest). */
  readonly createdAt: number;
  readonly ordinal?: number;
  /** Scale-down may pick it: an idle real instance (not fixed, not planned or in flight). */
  readonly removable: boolean;
  /** Its place in the scale-in policy's order (scale-in-order.ts); absent: newest first. */
  readonly scaleInKey?: readonly number[];
}

/** An instance on its way out, and why. */
export interface Leaving {
  readonly view: InstanceView;
  readonly reason: ScaleReason;
}

export interface Members {
  readonly members: readonly Member[];
  readonly leaving: readonly Leaving[];
  /** Instances whose ended Pod is deleted and rendered again (InPlaceReuse). */
  readonly replacing: readonly InstanceView[];
}

function member(view: InstanceView, kind: MemberKind, removable: boolean, order: ScaleInOrder): Member {
  const labels = view.source.exporter.metadata?.labels;
  return {
    name: view.name,
    kind,
    enabled: view.enabled,
    current: view.current,
    createdAt: view.createdAt,
    ...(view.ordinal !== undefined ? { ordinal: view.ordinal } : {}),
    removable,
    scaleInKey: scaleInKey(order, { ...view, ...(labels ? { labels } : {}) }),
  };
}

/** A create planned this pass or in flight: current, enabled, newest, never removable. */
export function plannedMember(name: string, standby: boolean, ordinal?: number): Member {
  return {
    name,
    kind: standby ? 'standby' : 'starting',
    enabled: true,
    current: true,
    createdAt: Number.POSITIVE_INFINITY,
    ...(ordinal !== undefined ? { ordinal } : {}),
    removable: false,
  };
}

export function sortMembers(world: World): Members {
  const members: Member[] = [];
  const leaving: Leaving[] = [];
  const replacing: InstanceView[] = [];
  const order = world.spec.scaleIn;
  for (const view of world.owned) {
    switch (view.state) {
      case 'leased':
      case 'disabledByHand':
        members.push(member(view, 'fixed', false, order));
        break;
      case 'retiring':
        leaving.push({ view, reason: view.retiringReason ?? 'scale-down' });
        break;
      case 'failed':
      case 'exited': {
        const step = recycleStep(view, world.spec);
        if (step === 'replace-pod') {
          replacing.push(view);
          members.push(member(view, 'starting', true, order));
        } else {
          leaving.push({ view, reason: step });
        }
        break;
      }
      case 'standby':
      case 'available':
      case 'offline':
      case 'starting':
        // An Exporter naming a lease the cache does not show may be leased already: not a victim.
        members.push(member(view, view.state, !view.leaseRefUnconfirmed, order));
        break;
      default:
        break;
    }
  }
  const setName = world.set.metadata?.name ?? '';
  for (const create of world.virtualCreates) {
    members.push(plannedMember(create.name, create.standby, instanceOrdinal(setName, create.name)));
  }
  return { members, leaving, replacing };
}
