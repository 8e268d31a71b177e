/**
 * What a pass decided, as the status reports it: one shape (`PassFacts`) whichever way the pass went —
 * the pool's rules (`poolFacts`, from plan.ts), a set that stands still (a missing class, a pin to no
 * recorded revision: `standingStillFacts`) or one that drains (`drainFacts`). The status is made of
 * these facts and the pass's World alone (calculate-status.ts).
 */
import type { Gates } from '../decide/gates';
import { outdatedCount } from '../decide/scale/rollout';
import { persistedWindow } from '../decide/scale/scale-down';
import type { PlannedRemoval, ScaleDecision, ScaleDownWindow } from '../decide/scale/types';
import { awaitingCredential, backoffDelay, type StartupFailureState } from '../decide/startup-failures';
import type { Action, CreateExporterAction } from '../model/actions';
import { toMillis } from '../model/time';
import { count } from '../model/wire-guards';
import type { World } from '../observe/world';
import { specChecks, type SpecChecks } from '../spec/spec-checks';
import type { HealthInput, ScalingInput } from './condition-inputs';
import { reasonsOf } from './outcome';
import type { RecycleReport } from './recycle-report';

/** The fields the status carries from pass to pass. */
export interface PersistedFields {
  readonly nextOrdinal: number;
  readonly window?: ScaleDownWindow;
  readonly startupFailures: number;
  readonly lastStartupFailureTime?: number;
  readonly templateRevision?: string;
  /** `status.lastCompletedRecycle` (spec/requested-recycle.ts). */
  readonly lastCompletedRecycle?: number;
}

/** What a pass decided, as the status reports it. */
export interface PassFacts {
  readonly classMissing?: { readonly name: string; readonly finding: string };
  readonly spec: SpecChecks;
  readonly invalidParameters?: string;
  /** Scaling's input, but for the counts read from the instances. */
  readonly scaling: Omit<ScalingInput, 'replicas' | 'starting'> & {
    /** This pass's creates and promotions. */
    readonly startingNow: number;
  };
  readonly health: Omit<HealthInput, 'offline'>;
  /** The kinds of write this pass sends (outcome.ts `reasonsOf`). */
  readonly plannedWrites: ReadonlySet<string>;
  readonly persisted: PersistedFields;
  readonly creates: readonly CreateExporterAction[];
}

/** The persisted fields as the status has them (for passes that change nothing). */
export function persistedAsIs(world: World): PersistedFields {
  const status = world.set.status;
  const window = persistedWindow(status);
  const last = toMillis(status?.lastStartupFailureTime);
  const revision = world.revision ?? status?.templateRevision;
  const recycled = toMillis(status?.lastCompletedRecycle);
  return {
    nextOrdinal: world.firstOrdinal,
    ...(window.start !== undefined && window.target !== undefined
      ? { window: { start: window.start, target: window.target } }
      : {}),
    startupFailures: count(status?.startupFailures, 0),
    ...(last !== undefined ? { lastStartupFailureTime: last } : {}),
    ...(revision !== undefined ? { templateRevision: revision } : {}),
    ...(recycled !== undefined ? { lastCompletedRecycle: recycled } : {}),
  };
}

/** A pass that changes nothing but the status; `why` says why (a missing class, an unknown pin). */
export function standingStillFacts(
  world: World,
  why: Pick<PassFacts, 'classMissing' | 'invalidParameters'>,
): PassFacts {
  const persisted = persistedAsIs(world);
  return {
    ...why,
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
  };
}

/** A set being deleted (§3.12): `actions` are the drain's, `removing` of them take instances out. */
export function drainFacts(world: World, actions: readonly Action[], removing: number): PassFacts {
  return {
    spec: specChecks(world.set),
    scaling: {
      draining: { remaining: world.owned.length, leased: world.owned.filter((v) => v.leased).length },
      outdated: 0,
      startingNow: 0,
      rendering: 0,
      deferred: 0,
      leaving: removing,
    },
    health: { startupFailures: 0, backoffMs: 0 },
    plannedWrites: reasonsOf(actions),
    persisted: persistedAsIs(world),
    creates: [],
  };
}

/** What the pool's rules decided in a pass (plan.ts). */
export interface PoolPass {
  readonly gate: Gates;
  readonly decision: ScaleDecision;
  /** This pass's removals (the instance held back by §3.6 excepted), and their names. */
  readonly removals: readonly PlannedRemoval[];
  readonly removed: ReadonlySet<string>;
  /** Instances already on their way out. */
  readonly leaving: number;
  readonly creates: readonly CreateExporterAction[];
  readonly actions: readonly Action[];
  readonly failures: StartupFailureState;
  /** Renders planned (Pods this pass starts). */
  readonly rendering: number;
  readonly recycle: RecycleReport;
}

/** A pass of the pool's rules. */
export function poolFacts(world: World, pass: PoolPass): PassFacts {
  const { spec } = world;
  const { gate, decision, removals, failures } = pass;
  const { window } = decision;
  const revision = world.revision ?? '';
  return {
    ...(gate.invalidParameters !== undefined ? { invalidParameters: gate.invalidParameters } : {}),
    spec: {
      selectorMatchesTemplate: gate.selectorMatchesTemplate,
      ...(gate.invalidSpec !== undefined ? { invalidSpec: gate.invalidSpec } : {}),
      ...(gate.scheduleFindings !== undefined ? { scheduleFindings: gate.scheduleFindings } : {}),
    },
    scaling: {
      outdated: outdatedCount(world.owned, pass.removed, gate.canCreate, spec.update),
      revision,
      ...(spec.recycle && pass.recycle.pending > 0
        ? { recycle: { pending: pass.recycle.pending, requestedAt: spec.recycle.at } }
        : {}),
      startingNow: decision.creates.length + decision.promote.length,
      rendering: pass.rendering,
      deferred: decision.deferred,
      leaving: removals.length + pass.leaving,
      ...(window
        ? {
            window: {
              ...window,
              dueAt: window.start + spec.cooldownMs,
              surplus: Math.max(0, decision.surplus - removals.length),
            },
          }
        : {}),
      ...(decision.limited ? { limited: { maxReplicas: spec.maxReplicas, wanted: decision.wanted } } : {}),
    },
    health: healthFacts(world, failures),
    plannedWrites: reasonsOf(pass.actions),
    persisted: {
      nextOrdinal: world.firstOrdinal + pass.creates.length,
      ...(window ? { window } : {}),
      startupFailures: failures.failures,
      ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
      templateRevision: revision,
      ...(pass.recycle.lastCompleted !== undefined
        ? { lastCompletedRecycle: pass.recycle.lastCompleted }
        : {}),
    },
    creates: pass.creates,
  };
}

function healthFacts(world: World, failures: StartupFailureState): PassFacts['health'] {
  const waits = awaitingCredential(world);
  return {
    ...(waits !== undefined ? { awaitingCredential: waits } : {}),
    startupFailures: failures.failures,
    ...(failures.lastFailureTime !== undefined ? { lastStartupFailureTime: failures.lastFailureTime } : {}),
    backoffMs: backoffDelay(failures.failures, world.options),
  };
}
