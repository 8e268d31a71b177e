/**
 * A selector operation's state from its instances' results: Complete when all are, Failed once all
 * finished and one failed, else in progress — naming the leased instances it waits for.
 */
import { OperationReasons as R } from 'virtual-exporters/internal';
import type { Outcome } from '../outcome';
import type { ChildResults } from './children';

export function selectorOutcome({ instances, actions, events }: ChildResults): Outcome {
  const total = instances.length;
  const done = instances.filter((i) => i.state === 'Complete').length;
  const failedOnes = instances.filter((i) => i.state === 'Failed');
  const waiting = instances.filter((i) => i.reason === R.WaitingForLease);
  const waitingMessage =
    waiting.length > 0
      ? `${waiting.map((i) => i.exporterName).join(', ')} ${waiting.length === 1 ? 'is' : 'are'} leased; the operation waits for ${waiting.length === 1 ? 'that lease' : 'those leases'} to end`
      : undefined;
  const base = { instances, actions, events, ...(waitingMessage ? { waiting: waitingMessage } : {}) };
  if (done === total) {
    return { ...base, state: 'Complete', reason: R.Succeeded, message: `all ${total} instances done` };
  }
  if (done + failedOnes.length === total) {
    return {
      ...base,
      state: 'Failed',
      reason: R.InstancesFailed,
      message: `${failedOnes.length} of ${total} instances failed: ${failedOnes
        .map((i) => `${i.exporterName} (${i.reason ?? 'Failed'}: ${i.message ?? ''})`)
        .join('; ')}`,
    };
  }
  return {
    ...base,
    state: 'InProgress',
    reason: R.InstancesInProgress,
    message: `${done + failedOnes.length} of ${total} instances finished${waitingMessage ? `; ${waitingMessage}` : ''}`,
  };
}
