/**
 * The API clients of the controller, made once from one KubeConfig: typed custom-object clients for
 * our kinds, Jumpstarter's and apps/v1 ControllerRevisions, CoreV1Api for Pods, Secrets, ConfigMaps and Events, and
 * CoordinationV1Api for leader election. Every request of the controller goes through these, so the
 * RBAC replay sees them under one identity, and over one pool of kept-alive connections (keep-alive.ts).
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
import { KeepAliveAuthentication, keepAliveClient } from './keep-alive';
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
  /** Another API client over the same connections (e.g. the permission check's). */
  apiClient<T>(type: new (configuration: ApiConfiguration) => T): T;
  /** Closes the kept-alive connections (the manager's stop). */
  close(): void;
}

type ApiConfiguration = ConstructorParameters<typeof CoreV1Api>[0];

export function createClients(kubeConfig: KubeConfig): KubeClients {
  const auth = new KeepAliveAuthentication(kubeConfig);
  const apiClient = <T>(type: new (configuration: ApiConfiguration) => T): T =>
    keepAliveClient(kubeConfig, auth, type);
  const custom = apiClient(CustomObjectsApi);
  return {
    kubeConfig,
    custom,
    core: apiClient(CoreV1Api),
    coordination: apiClient(CoordinationV1Api),
    exporterSets: new CustomObjectClient<ExporterSet>(custom, ExporterSetResource),
    virtualTargetClasses: new CustomObjectClient<VirtualTargetClass>(custom, VirtualTargetClassResource),
    exporters: new CustomObjectClient<Exporter>(custom, ExporterResource),
    leases: new CustomObjectClient<Lease>(custom, JumpstarterLeaseResource),
    exporterOperations: new CustomObjectClient<ExporterOperation>(custom, ExporterOperationResource),
    controllerRevisions: new CustomObjectClient<ControllerRevision>(custom, ControllerRevisionResource),
    apiClient,
    close: () => auth.close(),
  };
}
