/**
 * Disable: `spec.enabled: false` with the manually-disabled annotation, as an operator disabling by hand
 * does (SPEC §3.11: the set keeps it, does not count it and never picks it as a victim). Never applies
 * to an instance the set is removing.
 */
import { Annotations, OperationReasons as R } from 'virtual-exporters/internal';
import { retiringFailure, type KindRule } from './context';
import { patchInstance } from './patches';

export const disableRule: KindRule = {
  waitsForLease: true,
  decide(context) {
    const { name, setName, enabled, byHand, retiring } = context;
    if (retiring) return retiringFailure(context);
    if (!enabled && byHand) return context.reply('Complete', R.Succeeded, `instance ${name} is disabled`);
    return context.reply(
      'Complete',
      R.Succeeded,
      `instance ${name} is disabled`,
      patchInstance(
        context,
        {
          metadata: { annotations: { [Annotations.manuallyDisabled]: 'true' } },
          spec: { enabled: false },
        },
        `disabled instance ${name} (spec.enabled=false, ${Annotations.manuallyDisabled}=true): ExporterSet ${setName} keeps it and refills around it`,
      ),
    );
  },
};
