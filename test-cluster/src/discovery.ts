/**
 * Discovery documents of the test cluster, built from the resource registry: what `/api`, `/apis`
 * and the group-version resource lists return. client-node's `KubernetesObjectApi` reads them to
 * map a kind to its URL, kubectl to resolve names, short names and categories.
 */
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './types';

const MAIN_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

/** The Kubernetes version the server reports (the API it imitates). */
export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-test-cluster',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'none',
  compiler: 'none',
  platform: `${process.platform}/${process.arch}`,
};

/** `/api`: the core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** The named groups and their versions, in registry order (core excluded). */
function groups(registry: ResourceRegistry): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rt of registry.all()) {
    if (rt.group === '') continue;
    const versions = out.get(rt.group) ?? [];
    if (!versions.includes(rt.version)) versions.push(rt.version);
    out.set(rt.group, versions);
  }
  return out;
}

function apiGroup(name: string, versions: string[]): Record<string, unknown> {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

/** `/apis`: every named group. */
export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups(registry)].map(([name, versions]) => apiGroup(name, versions)),
  };
}

/** `/apis/<group>`: one group, or undefined when the server has no such group. */
export function apiGroupDocument(
  registry: ResourceRegistry,
  group: string,
): Record<string, unknown> | undefined {
  const versions = groups(registry).get(group);
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) } : undefined;
}

/** `/api/v1`, `/apis/<group>/<version>`: the resources of one group version, or undefined when none. */
export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): Record<string, unknown> | undefined {
  const types = registry.all().filter((rt) => rt.group === group && rt.version === version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources: types.flatMap(resourceEntries),
  };
}

function resourceEntries(rt: ResourceType): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [
    {
      name: rt.plural,
      singularName: rt.singular,
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: MAIN_VERBS,
      ...(rt.shortNames?.length ? { shortNames: rt.shortNames } : {}),
      ...(rt.categories?.length ? { categories: rt.categories } : {}),
    },
  ];
  if (rt.statusSubresource) {
    entries.push({
      name: `${rt.plural}/status`,
      singularName: '',
      namespaced: rt.namespaced,
      kind: rt.kind,
      verbs: SUBRESOURCE_VERBS,
    });
  }
  if (rt.scale) {
    entries.push({
      name: `${rt.plural}/scale`,
      singularName: '',
      namespaced: rt.namespaced,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: SUBRESOURCE_VERBS,
    });
  }
  return entries;
}
