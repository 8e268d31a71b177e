/**
 * Enable: `spec.enabled: true` without the manually-disabled annotation, undoing a Disable. It does not
 * wait for a lease (enabling takes nothing away) and never applies to an instance the set is removing.
 */
import { Annotations, OperationReasons as R } from 'virtual-exporters/internal';
import { retiringFailure, type KindRule } from './context';
import { patchInstance } from './patches';

export const enableRule: KindRule = {
  waitsForLease: false,
  decide(context) {
    const { name, enabled, byHand, retiring } = context;
    if (retiring) return retiringFailure(context);
    if (enabled && !byHand) return context.reply('Complete', R.Succeeded, `instance ${name} is enabled`);
    return context.reply(
      'Complete',
      R.Succeeded,
      `instance ${name} is enabled`,
      patchInstance(
        context,
        { metadata: { annotations: { [Annotations.manuallyDisabled]: null } }, spec: { enabled: true } },
        `enabled instance ${name} (spec.enabled=true)`,
      ),
    );
  },
};
