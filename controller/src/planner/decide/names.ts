/**
 * §3.10 names: this pass's creates get `<set>-<n>`, from the first free ordinal (model/ordinals.ts)
 * one up for each, with the Exporter each one creates.
 */
import { instanceName } from 'virtual-exporters/internal';
import type { CreateExporterAction } from '../model/actions';
import { desiredExporter } from '../model/exporter';
import type { World } from '../observe/world';
import { recycleStamp } from '../spec/requested-recycle';
import type { PlannedCreate } from './scale/types';

/** This pass's creates with their names: the first free ordinal, then one up for each. */
export function nameCreates(world: World, creates: readonly PlannedCreate[]): CreateExporterAction[] {
  const setName = world.set.metadata?.name ?? '';
  const revision = world.revision ?? '';
  const recycle = recycleStamp(world.spec.recycle);
  return creates.map((create, i) => {
    const ordinal = world.firstOrdinal + i;
    const name = instanceName(setName, ordinal);
    return {
      type: 'CreateExporter',
      name,
      ordinal,
      standby: create.standby,
      revision,
      reason: create.reason,
      exporter: desiredExporter(
        world.set,
        name,
        ordinal,
        revision,
        create.standby,
        world.provisioner.name,
        recycle,
      ),
    };
  });
}
