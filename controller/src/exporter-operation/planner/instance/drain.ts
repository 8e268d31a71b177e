/**
 * Drain: the instance is disabled with the set's retiring marker, as a scale-down does; the set deletes
 * it and refills by its rules. Complete once it is gone. When no other instance of the set would stay
 * enabled, it is recycled instead, a replacement first: with nothing enabled, Jumpstarter ends every
 * waiting lease of the pool at once (AllDisabled), which the set's own rules never allow (SPEC §3.6).
 */
import { Annotations } from 'virtual-exporters/internal';
import type { OperationSnapshot } from '../snapshot';
import { waitForSet, type KindRule } from './context';
import { patchInstance, recycleMark } from './patches';

export const drainRule: KindRule = {
  doneWhenGone: 'left its set',
  waitsForLease: true,
  decide(context) {
    const { name, setName, enabled, retiring, annotations } = context;
    const message = `instance ${name} is disabled on its way out; ExporterSet ${setName} deletes it and refills by its rules`;
    if (retiring) return waitForSet(context, `instance ${name} is leaving ExporterSet ${setName}`);
    if (enabled && !othersStayEnabled(context.snapshot)) {
      const last = `instance ${name} is the last enabled instance of ExporterSet ${setName}, so it is drained a replacement first (marked for recycling): with no enabled Exporter, Jumpstarter would end the pool's waiting leases`;
      if (annotations[Annotations.recycleRequested] !== undefined) return waitForSet(context, last);
      return waitForSet(
        context,
        last,
        patchInstance(
          context,
          recycleMark(context),
          `marked instance ${name} for recycling (${Annotations.recycleRequested}): the last enabled instance of ExporterSet ${setName} is drained a replacement first`,
        ),
      );
    }
    return waitForSet(
      context,
      message,
      patchInstance(
        context,
        {
          // The set's own retiring marker (the ExporterSet planner's disablePatch), dropping a by-hand disable.
          metadata: {
            annotations: { [Annotations.retiring]: 'drain', [Annotations.manuallyDisabled]: null },
          },
          spec: { enabled: false },
        },
        `disabled instance ${name} to drain it (${Annotations.retiring}=drain)`,
      ),
    );
  },
};

/** Another instance of the set is enabled, not on its way out, and not about to be disabled. */
function othersStayEnabled(s: OperationSnapshot): boolean {
  return (s.siblings ?? []).some((e) => {
    const name = e.metadata?.name ?? '';
    return (
      e.spec?.enabled !== false &&
      e.metadata?.deletionTimestamp === undefined &&
      e.metadata?.annotations?.[Annotations.recycleRequested] === undefined &&
      !(s.disabling?.has(name) ?? false)
    );
  });
}
