import type { Condition, LabelSelector, LocalObjectReference, ObjectMeta } from './meta';

export interface LeaseSpec {
  readonly clientRef: LocalObjectReference;
  readonly selector: LabelSelector;
  /** Pins the lease to one exporter. */
  readonly exporterRef?: LocalObjectReference;
  readonly allowDisabled?: boolean;
  /** Go-style duration. */
  readonly duration?: string;
  readonly beginTime?: string;
  readonly endTime?: string;
  readonly release?: boolean;
  readonly tags?: Readonly<Record<string, string>>;
  readonly context?: Readonly<Record<string, string>>;
}

export interface LeaseStatus {
  readonly exporterRef?: LocalObjectReference;
  readonly ended: boolean;
  readonly beginTime?: string;
  readonly endTime?: string;
  readonly priority?: number;
  readonly spotAccess?: boolean;
  readonly conditions?: readonly Condition[];
}

/** Jumpstarter's Lease (`jumpstarter.dev/v1alpha1`), not coordination.k8s.io's. */
export interface Lease {
  readonly apiVersion: string;
  readonly kind: 'Lease';
  readonly metadata: ObjectMeta;
  readonly spec: LeaseSpec;
  readonly status?: LeaseStatus;
}
