/**
 * The set's writes through `/status`: the pass's one status write, made only when the status differs
 * from the newest known one (SPEC §3.15: a settled pool writes nothing), and, before Exporter deletes,
 * `status.nextOrdinal` put past the names they free (SPEC §3.10). What was written is remembered
 * (status-memo.ts), so the next pass reads it even before the cache does.
 */
import type { ExporterSet, ExporterSetStatus } from 'virtual-exporters/internal';
import { apiErrorMessage, isNotFound } from '../kube/api-errors';
import type { KubeClients } from '../kube/clients';
import { ordinalsToRecord, statusEquals, type Plan } from '../planner';
import { parseObjectKey } from '../queue/object-key';
import type { Execution } from './execution';
import { statusMergePatch } from './status-patch';
import type { StatusMemo } from './status-memo';

export interface StatusWriteDeps {
  readonly clients: Pick<KubeClients, 'exporterSets'>;
  readonly statuses: StatusMemo;
}

/**
 * Whether the pass writes `status`: one that differs from the set's, of a set that is not gone (a set
 * whose drain finalizer this pass removed is deleted).
 */
export function statusToWrite(
  set: ExporterSet,
  status: ExporterSetStatus | undefined,
  execution: Pick<Execution, 'applied'>,
): status is ExporterSetStatus {
  const gone = execution.applied.some((a) => a.type === 'RemoveFinalizer') && set.metadata?.deletionTimestamp;
  return status !== undefined && !gone && !statusEquals(set.status, status);
}

/** Writes the changed fields of `status` as a merge patch; a set gone meanwhile needs none. */
export async function writeStatus(
  deps: StatusWriteDeps,
  key: string,
  set: ExporterSet,
  status: ExporterSetStatus,
): Promise<void> {
  const { namespace, name } = parseObjectKey(key);
  try {
    const written = await deps.clients.exporterSets.patchStatus(namespace, name, {
      type: 'merge',
      body: { status: statusMergePatch(set.status, status) as object },
    });
    deps.statuses.remember(key, written.status ?? status, written.metadata?.resourceVersion);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/**
 * §3.10: puts `status.nextOrdinal` past the Exporters `plan` deletes before they go, when the status
 * does not cover them yet (the planner's `ordinalsToRecord`). Says why it could not, or undefined.
 */
export async function recordOrdinals(
  deps: StatusWriteDeps,
  key: string,
  set: ExporterSet,
  plan: Plan,
): Promise<string | undefined> {
  const nextOrdinal = ordinalsToRecord(set, plan.actions);
  if (nextOrdinal === undefined) return undefined;
  const { namespace, name } = parseObjectKey(key);
  try {
    const written = await deps.clients.exporterSets.patchStatus(namespace, name, {
      type: 'merge',
      body: { status: { nextOrdinal } },
    });
    if (written.status) deps.statuses.remember(key, written.status, written.metadata?.resourceVersion);
    return undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    return `status.nextOrdinal ${nextOrdinal} of ExporterSet ${key} was not recorded, so its Exporter deletes wait: ${apiErrorMessage(error)}`;
  }
}
