/**
 * Recycle: the instance is marked (`recycle-requested`) and the set replaces it the way a rollout
 * replaces an outdated instance, a replacement first, so the warm buffer holds. Complete once the
 * instance is gone. An instance disabled by hand is never replaced, so it fails.
 */
import { Annotations, OperationReasons as R } from 'virtual-exporters/internal';
import { waitForSet, type KindRule } from './context';
import { patchInstance, recycleMark } from './patches';

export const recycleRule: KindRule = {
  doneWhenGone: 'was recycled',
  waitsForLease: true,
  decide(context) {
    const { name, setName, enabled, retiring, annotations } = context;
    const message = `instance ${name} is marked for recycling; ExporterSet ${setName} replaces it (the replacement first, so the warm buffer holds)`;
    if (retiring) return waitForSet(context, `instance ${name} is leaving ExporterSet ${setName}`);
    if (!enabled) {
      return context.reply(
        'Failed',
        R.InstanceDisabled,
        `instance ${name} is disabled by hand, so ExporterSet ${setName} never replaces it; enable it first (operation Enable), then recycle it`,
      );
    }
    if (annotations[Annotations.recycleRequested] !== undefined) return waitForSet(context, message);
    return waitForSet(
      context,
      message,
      patchInstance(
        context,
        recycleMark(context),
        `marked instance ${name} for recycling (${Annotations.recycleRequested})`,
      ),
    );
  },
};
