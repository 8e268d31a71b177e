/**
 * The status Jumpstarter reports on an Exporter (INTEROP §1), as a pure function of what the
 * simulator knows: the exporter process, the active lease, the credential and the endpoint.
 *
 * - `Registered`: True (`Registered`) while the last registration stands; False `Unregistered`
 *   after a graceful shutdown, False `NotRegistered` when no process ever registered.
 * - `Online`: True (`Seen`) while the process reports in; False `Offline` after a graceful
 *   shutdown; False `Seen` when never seen, or when a lost (crashed, killed) process has not been
 *   seen for `seenTimeoutMs` — until then a lost process still counts as online, as upstream cannot
 *   tell a crash from a quiet exporter.
 * - `exporterStatus`: `Offline` when not online; `AfterLeaseHook` while exiting after its lease;
 *   `LeaseReady` while leased; else `Available`.
 * - `lastSeen`: the last change of the process (see ExporterProcessState.lastSeen).
 */
import {
  ExporterConditionTypes,
  type Exporter,
  type ExporterStatus,
  type ExporterStatusValue,
} from 'virtual-exporters/internal';
import { setCondition, timestamp } from './conditions';
import type { ExporterProcessState } from './exporter-processes';

export const ExporterReasons = {
  Registered: 'Registered',
  Unregistered: 'Unregistered',
  NotRegistered: 'NotRegistered',
  Seen: 'Seen',
  Offline: 'Offline',
} as const;

export interface ExporterStatusInput {
  readonly exporter: Exporter;
  /** The process registered for this exporter's name, if any (one registered for an earlier Exporter of the name is ignored). */
  readonly process: ExporterProcessState | undefined;
  /** The active lease that holds the exporter. */
  readonly leaseName: string | undefined;
  /** The credential Secret, once it exists. */
  readonly credentialName: string | undefined;
  readonly endpoint: string;
  readonly now: number;
  readonly seenTimeoutMs: number;
}

export interface DesiredExporterStatus {
  readonly status: ExporterStatus;
  /** When the status changes by itself (a lost process goes offline): look again then. */
  readonly recheckAt?: number;
}

function relevantProcess(input: ExporterStatusInput): ExporterProcessState | undefined {
  const { process, exporter } = input;
  // A process registered for an earlier Exporter of the same name belongs to that one. Identity, not
  // time: the registration is stamped on the controller's clock, creationTimestamp on the API server's.
  return process?.exporterUid === undefined || process.exporterUid === exporter.metadata.uid
    ? process
    : undefined;
}

export function desiredExporterStatus(input: ExporterStatusInput): DesiredExporterStatus {
  const { exporter, leaseName, credentialName, endpoint, now, seenTimeoutMs } = input;
  const process = relevantProcess(input);
  const phase = process?.phase;
  const lostUntil = process !== undefined && phase === 'lost' ? process.lastSeen + seenTimeoutMs : undefined;
  const online = phase === 'running' || phase === 'exiting' || (lostUntil !== undefined && now < lostUntil);
  const registered = process !== undefined && phase !== 'exited';

  let conditions = setCondition(
    exporter.status?.conditions,
    registered
      ? {
          type: ExporterConditionTypes.Registered,
          status: 'True',
          reason: ExporterReasons.Registered,
          message: `the exporter registered ${process.devices.length} devices`,
        }
      : phase === 'exited'
        ? {
            type: ExporterConditionTypes.Registered,
            status: 'False',
            reason: ExporterReasons.Unregistered,
            message: 'the exporter unregistered when it shut down',
          }
        : {
            type: ExporterConditionTypes.Registered,
            status: 'False',
            reason: ExporterReasons.NotRegistered,
            message: 'no exporter process has registered',
          },
    now,
  );
  conditions = setCondition(
    conditions,
    online
      ? {
          type: ExporterConditionTypes.Online,
          status: 'True',
          reason: ExporterReasons.Seen,
          message: 'the exporter reports in',
        }
      : phase === 'exited'
        ? {
            type: ExporterConditionTypes.Online,
            status: 'False',
            reason: ExporterReasons.Offline,
            message: 'the exporter shut down',
          }
        : {
            type: ExporterConditionTypes.Online,
            status: 'False',
            reason: ExporterReasons.Seen,
            message:
              process === undefined
                ? 'the exporter has never been seen'
                : `the exporter was last seen at ${timestamp(process.lastSeen)}, more than ${seenTimeoutMs / 1000}s ago`,
          },
    now,
  );

  const exporterStatus: ExporterStatusValue = !online
    ? 'Offline'
    : phase === 'exiting'
      ? 'AfterLeaseHook'
      : leaseName !== undefined
        ? 'LeaseReady'
        : 'Available';
  const statusMessage =
    exporterStatus === 'Offline'
      ? 'the exporter is not connected'
      : exporterStatus === 'AfterLeaseHook'
        ? 'the lease ended; the exporter is exiting'
        : exporterStatus === 'LeaseReady'
          ? `leased by ${leaseName}`
          : 'ready for a lease';

  const status: ExporterStatus = {
    conditions,
    ...(credentialName !== undefined ? { credential: { name: credentialName } } : {}),
    endpoint,
    ...(leaseName !== undefined ? { leaseRef: { name: leaseName } } : {}),
    exporterStatus,
    statusMessage,
    ...(process !== undefined ? { lastSeen: timestamp(process.lastSeen) } : {}),
    ...(registered ? { devices: process.devices } : {}),
  };
  return { status, ...(online && lostUntil !== undefined ? { recheckAt: lostUntil } : {}) };
}
