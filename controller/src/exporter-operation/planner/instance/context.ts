/**
 * An operation on one instance (`spec.exporterName`): the checks every kind shares, in order — the
 * instance gone, not found, not an instance of a set, its set being deleted — and what a kind's rule
 * reads once they pass.
 */
import {
  Annotations,
  OperationReasons as R,
  type Exporter,
  type OperationInstanceResult,
  type OperationName,
  type OperationState,
} from 'virtual-exporters/internal';
import { controllingSetName } from '../../../planner';
import type { Outcome } from '../outcome';
import type { OperationSnapshot } from '../snapshot';

/** The outcome of an operation on one instance, whose result is the operation's. */
export type Reply = (
  state: OperationState,
  reason: string,
  message: string,
  extra?: Partial<Outcome>,
) => Outcome;

/** What a kind's rule decides from: a live instance of a set that is not being deleted. */
export interface InstanceContext {
  readonly snapshot: OperationSnapshot;
  readonly operation: OperationName;
  readonly name: string;
  readonly uid?: string;
  readonly exporter: Exporter;
  readonly setName: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  /** Disabled by hand (the manually-disabled annotation). */
  readonly byHand: boolean;
  /** Disabled by the set on its way out (the retiring annotation). */
  readonly retiring: boolean;
  readonly reply: Reply;
}

/** How one kind of operation acts on an instance. */
export interface KindRule {
  /**
   * For a kind that takes the instance out of its set: what happened to it, when it is gone after the
   * operation started (the operation is Complete then).
   */
  readonly doneWhenGone?: string;
  /** Whether it waits while a Lease names the instance. */
  readonly waitsForLease: boolean;
  readonly decide: (context: InstanceContext) => Outcome;
}

/** The instance's context, or the outcome when a shared check already decides. */
export function instanceContext(
  s: OperationSnapshot,
  operation: OperationName,
  name: string,
  rule: KindRule,
): { readonly context: InstanceContext } | { readonly outcome: Outcome } {
  const ns = s.operation.metadata?.namespace ?? '';
  const recorded = s.operation.status?.instances?.[0];
  const exporter = s.target?.exporter;
  const uid = exporter?.metadata?.uid;
  const reply = replyFor(name, recorded?.uid ?? uid);
  const gone =
    exporter === undefined ||
    (recorded?.uid !== undefined && uid !== recorded.uid) ||
    exporter.metadata?.deletionTimestamp !== undefined;
  if (gone && rule.doneWhenGone !== undefined && recorded?.uid !== undefined) {
    return { outcome: reply('Complete', R.Succeeded, `instance ${name} ${rule.doneWhenGone}`) };
  }
  if (exporter === undefined) {
    return {
      outcome: reply(
        'Failed',
        R.ExporterNotFound,
        `Exporter ${name} not found in namespace ${ns}; name an instance of an ExporterSet (kubectl get exporters -n ${ns})`,
      ),
    };
  }
  if (gone) {
    return {
      outcome: reply(
        'Failed',
        R.ExporterNotFound,
        `Exporter ${name} is being deleted; ${operation} needs an instance that stays`,
      ),
    };
  }
  const setName = controllingSetName(exporter);
  if (setName === undefined || s.set === undefined) {
    return {
      outcome: reply(
        'Failed',
        R.NotAnInstance,
        `Exporter ${name} is not an instance of an ExporterSet (no controller ownerReference to one); operations act on set instances only`,
      ),
    };
  }
  if (s.set.metadata?.deletionTimestamp !== undefined) {
    // The set's drain decides on every instance: an Enable racing it would hand Jumpstarter an
    // instance the drain is deleting (a lease could land on it in between).
    return {
      outcome: reply(
        'Failed',
        R.ExporterSetDeleting,
        `ExporterSet ${setName} is being deleted and drains instance ${name} itself; ${operation} does nothing`,
      ),
    };
  }
  const annotations = exporter.metadata?.annotations ?? {};
  const enabled = exporter.spec?.enabled !== false;
  const byHand = annotations[Annotations.manuallyDisabled] === 'true';
  return {
    context: {
      snapshot: s,
      operation,
      name,
      ...(uid !== undefined ? { uid } : {}),
      exporter,
      setName,
      annotations,
      enabled,
      byHand,
      retiring: !enabled && !byHand && annotations[Annotations.retiring] !== undefined,
      reply,
    },
  };
}

function replyFor(name: string, uid: string | undefined): Reply {
  const result = (state: OperationState, reason: string, message: string): OperationInstanceResult => ({
    exporterName: name,
    ...(uid !== undefined ? { uid } : {}),
    state,
    reason,
    message,
  });
  return (state, reason, message, extra = {}) => ({
    state,
    reason,
    message,
    instances: [result(state, reason, message)],
    ...extra,
  });
}

/** In progress: the set does the rest by its own rules. */
export function waitForSet(context: InstanceContext, message: string, extra: Partial<Outcome> = {}): Outcome {
  return context.reply('InProgress', R.WaitingForSet, message, extra);
}

/** Enable and Disable leave an instance the set is removing alone. */
export function retiringFailure(context: InstanceContext): Outcome {
  const { name, setName, operation } = context;
  return context.reply(
    'Failed',
    R.InstanceRetiring,
    `instance ${name} is being removed by ExporterSet ${setName} (${Annotations.retiring}); it cannot be ${operation === 'Enable' ? 'enabled' : 'disabled'}`,
  );
}
