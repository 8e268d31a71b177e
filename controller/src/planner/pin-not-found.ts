/**
 * A set pinned to a revision it never recorded (pinning.ts): RevisionPinned=False says which value and
 * how to fix it, and nothing else changes — no instance is created, replaced or removed, as for a
 * missing class.
 */
import type { VirtualTargetClass } from 'virtual-exporters/internal';
import { parameterFindings, specChecks } from './class-and-parameters';
import type { World } from './observe';
import { finishPlan, type Plan } from './plan-result';
import { persistedAsIs, statusInputs } from './status';

export function planPinNotFound(world: World, cls: VirtualTargetClass): Plan {
  const persisted = persistedAsIs(world);
  // The spec and parameters are still checked: what they say holds once the pin is fixed or removed.
  const invalidParameters = parameterFindings(world, cls);
  const inputs = statusInputs(world, {
    ...(invalidParameters !== undefined ? { invalidParameters } : {}),
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
