/**
 * Coordinates of every resource the controller reads or writes: group, version, plural and kind, and
 * the REST paths built from them (the informers' watch paths). One table, so a typo in a plural
 * cannot make one informer watch nothing while the others work.
 */
import { GROUP, JUMPSTARTER_GROUP, Kinds, Plurals, VERSION } from 'virtual-exporters/internal';

export interface ApiResource {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  /** Lower-case plural, the URL segment. */
  readonly plural: string;
  readonly kind: string;
}

/** One of the kinds this project or Jumpstarter serves, at the version both use. */
function served(group: string, kind: keyof typeof Plurals & keyof typeof Kinds): ApiResource {
  return { group, version: VERSION, plural: Plurals[kind], kind: Kinds[kind] };
}

export const ExporterSetResource = served(GROUP, 'ExporterSet');
export const VirtualTargetClassResource = served(GROUP, 'VirtualTargetClass');
export const ExporterOperationResource = served(GROUP, 'ExporterOperation');
export const ExporterResource = served(JUMPSTARTER_GROUP, 'Exporter');
/** Jumpstarter's Lease, not coordination.k8s.io's. */
export const JumpstarterLeaseResource = served(JUMPSTARTER_GROUP, 'Lease');
export const PodResource: ApiResource = { group: '', version: 'v1', plural: 'pods', kind: 'Pod' };
export const SecretResource: ApiResource = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
/** The revisions an ExporterSet records (revision-history.ts). */
export const ControllerRevisionResource: ApiResource = {
  group: 'apps',
  version: 'v1',
  plural: 'controllerrevisions',
  kind: 'ControllerRevision',
};

/** `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(resource: ApiResource): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** The collection's path in `namespace`, or across all namespaces when it is undefined. */
export function collectionPath(resource: ApiResource, namespace?: string): string {
  const root =
    resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
  return namespace === undefined
    ? `${root}/${resource.plural}`
    : `${root}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`;
}
