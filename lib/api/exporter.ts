import type { Condition, LocalObjectReference, ObjectMeta } from './meta';

/** Reported by the exporter process. */
export type ExporterStatusValue =
  | 'Unspecified'
  | 'Offline'
  | 'Available'
  | 'BeforeLeaseHook'
  | 'LeaseReady'
  | 'AfterLeaseHook'
  | 'BeforeLeaseHookFailed'
  | 'AfterLeaseHookFailed';

export interface ExporterDevice {
  readonly uuid?: string;
  readonly parent_uuid?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

export interface ExporterSpec {
  /** Absent means true; disabled exporters get no new leases. @default true */
  readonly enabled?: boolean;
  readonly username?: string;
}

export interface ExporterStatus {
  readonly conditions?: readonly Condition[];
  readonly credential?: LocalObjectReference;
  readonly endpoint?: string;
  readonly leaseRef?: LocalObjectReference;
  readonly exporterStatus?: ExporterStatusValue;
  readonly statusMessage?: string;
  readonly lastSeen?: string;
  readonly devices?: readonly ExporterDevice[];
}

/** Jumpstarter's Exporter (`jumpstarter.dev/v1alpha1`). */
export interface Exporter {
  readonly apiVersion: string;
  readonly kind: 'Exporter';
  readonly metadata: ObjectMeta;
  readonly spec?: ExporterSpec;
  readonly status?: ExporterStatus;
}
