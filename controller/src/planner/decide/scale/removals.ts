/**
 * The removals of one pass as scale-down.ts and rollout.ts add them, with what they leave: the kept
 * count and the ready tally (tally.ts) the next removal is judged against.
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { Member } from '../members';
import { addMember, tallyOf, type Tally } from './tally';
import type { PlannedRemoval } from './types';

/** This pass's removals, with the kept count and ready tally they leave. */
export class Removals {
  readonly list: PlannedRemoval[] = [];
  private keptCount: number;
  private readyTally: Tally;

  constructor(
    members: readonly Member[],
    private readonly waitForFirstConsumer: boolean,
  ) {
    this.keptCount = members.length;
    this.readyTally = tallyOf(members, waitForFirstConsumer);
  }

  get kept(): number {
    return this.keptCount;
  }

  get tally(): Tally {
    return this.readyTally;
  }

  remove(m: Member, reason: ScaleReason): void {
    this.list.push({ name: m.name, reason });
    this.keptCount -= 1;
    this.readyTally = addMember(this.readyTally, m, this.waitForFirstConsumer, -1);
  }
}
