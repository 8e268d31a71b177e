/**
 * An operation on one instance never takes a leased instance away: after the shared checks
 * (context.ts), a kind that waits for leases waits (WaitingForLease) while a non-ended Lease names the
 * instance, and only then its rule acts — one file per kind.
 */
import { OperationReasons as R, type OperationName } from 'virtual-exporters/internal';
import type { Outcome } from '../outcome';
import type { OperationSnapshot } from '../snapshot';
import { instanceContext, type KindRule } from './context';
import { disableRule } from './disable';
import { drainRule } from './drain';
import { enableRule } from './enable';
import { recycleRule } from './recycle';

const RULES: Readonly<Record<OperationName, KindRule>> = {
  Recycle: recycleRule,
  Disable: disableRule,
  Enable: enableRule,
  Drain: drainRule,
};

export function decideInstance(s: OperationSnapshot, operation: OperationName, name: string): Outcome {
  const rule = RULES[operation];
  const checked = instanceContext(s, operation, name, rule);
  if ('outcome' in checked) return checked.outcome;
  const { context } = checked;
  const leasedBy = s.target?.leasedBy;
  if (rule.waitsForLease && leasedBy !== undefined) {
    const message = `instance ${name} is leased (Lease ${leasedBy}); ${operation} waits for the lease to end`;
    return { ...context.reply('InProgress', R.WaitingForLease, message), waiting: message };
  }
  return rule.decide(context);
}
