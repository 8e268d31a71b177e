/**
 * The API clients of the controller, made once from one KubeConfig: typed custom-object clients for
 * our kinds, Jumpstarter's and apps/v1 ControllerRevisions, CoreV1Api for Pods, Secrets, ConfigMaps and Events, and
 * CoordinationV1Api for leader election. Every request of the controller goes through these, so the
 * RBAC replay sees them under one identity.
 */
import { CoordinationV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type {
  ControllerRevision,
  Exporter,
  ExporterOperation,
  ExporterSet,
  Lease,
  VirtualTargetClass,
} from 'virtual-exporters/internal';
import { CustomObjectClient } from './custom-objects';
import {
  ExporterOperationResource,
  ControllerRevisionResource,
  ExporterResource,
  ExporterSetResource,
  JumpstarterLeaseResource,
  VirtualTargetClassResource,
} from './resources';

export interface KubeClients {
  readonly kubeConfig: KubeConfig;
  readonly custom: CustomObjectsApi;
  readonly core: CoreV1Api;
  readonly coordination: CoordinationV1Api;
  readonly exporterSets: CustomObjectClient<ExporterSet>;
  readonly virtualTargetClasses: CustomObjectClient<VirtualTargetClass>;
  readonly exporters: CustomObjectClient<Exporter>;
  /** Jumpstarter's Leases (read only: the controller never writes them). */
  readonly leases: CustomObjectClient<Lease>;
  /** ExporterOperations: status written, children created, finished ones deleted after their TTL. */
  readonly exporterOperations: CustomObjectClient<ExporterOperation>;
  /** The sets' recorded revisions (created and deleted, never updated). */
  readonly controllerRevisions: CustomObjectClient<ControllerRevision>;
}

export function createClients(kubeConfig: KubeConfig): KubeClients {
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  return {
    kubeConfig,
    custom,
    core: kubeConfig.makeApiClient(CoreV1Api),
    coordination: kubeConfig.makeApiClient(CoordinationV1Api),
    exporterSets: new CustomObjectClient<ExporterSet>(custom, ExporterSetResource),
    virtualTargetClasses: new CustomObjectClient<VirtualTargetClass>(custom, VirtualTargetClassResource),
    exporters: new CustomObjectClient<Exporter>(custom, ExporterResource),
    leases: new CustomObjectClient<Lease>(custom, JumpstarterLeaseResource),
    exporterOperations: new CustomObjectClient<ExporterOperation>(custom, ExporterOperationResource),
    controllerRevisions: new CustomObjectClient<ControllerRevision>(custom, ControllerRevisionResource),
  };
}
