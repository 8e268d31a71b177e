/**
 * The resource types the test cluster serves: the built-in kinds plus every CRD it is given, each CRD
 * turned into a `ResourceType` with its admission (defaulting, schema, CEL) compiled once.
 */
import type { CustomResourceDefinition } from 'virtual-exporters/internal';
import { crdAdmission } from './admission';
import { BUILTIN_RESOURCES } from './builtin-resources';
import { apiVersionOf, type ResourceRegistry, type ResourceType } from './types';

/** A registry that can learn new types (a CRD applied after start). */
export interface MutableResourceRegistry extends ResourceRegistry {
  /** Adds `rt`, replacing a type with the same group, version and plural. */
  add(rt: ResourceType): void;
}

/**
 * The `ResourceType` of one version of `crd` (default: the storage version), with its scale and status
 * subresources and its admission.
 */
export function resourceTypeFromCrd(crd: CustomResourceDefinition, version?: string): ResourceType {
  const { group, names, scope, versions } = crd.spec;
  const v = version
    ? versions.find((x) => x.name === version)
    : (versions.find((x) => x.storage) ?? versions[0]);
  if (!v) throw new Error(`CRD ${crd.metadata.name} has no version ${version ?? '(none at all)'}`);
  const strip = (path: string) => path.replace(/^\./, '');
  const scale = v.subresources?.scale;
  return Object.freeze({
    group,
    version: v.name,
    kind: names.kind,
    listKind: names.listKind,
    plural: names.plural,
    singular: names.singular,
    namespaced: scope === 'Namespaced',
    ...(names.shortNames ? { shortNames: [...names.shortNames] } : {}),
    ...(names.categories ? { categories: [...names.categories] } : {}),
    statusSubresource: v.subresources?.status !== undefined,
    custom: true,
    ...(scale
      ? {
          scale: {
            specReplicasPath: strip(scale.specReplicasPath),
            statusReplicasPath: strip(scale.statusReplicasPath),
            ...(scale.labelSelectorPath ? { labelSelectorPath: strip(scale.labelSelectorPath) } : {}),
          },
        }
      : {}),
    admission: crdAdmission(crd, v.name),
  });
}

const urlKey = (group: string, version: string, plural: string) => `${group}/${version}/${plural}`;
const kindKey = (apiVersion: string, kind: string) => `${apiVersion}#${kind}`;

/**
 * The built-in types plus one type per served version of each CRD. Scale paths are stored without
 * their leading dot (`spec.maxReplicas`).
 */
export function createRegistry(crds: readonly CustomResourceDefinition[] = []): MutableResourceRegistry {
  const byUrl = new Map<string, ResourceType>();
  const byKind = new Map<string, ResourceType>();
  const registry: MutableResourceRegistry = {
    all: () => [...byUrl.values()],
    get: (group, version, plural) => byUrl.get(urlKey(group, version, plural)),
    byKind: (apiVersion, kind) => byKind.get(kindKey(apiVersion, kind)),
    add(rt) {
      byUrl.set(urlKey(rt.group, rt.version, rt.plural), rt);
      byKind.set(kindKey(apiVersionOf(rt), rt.kind), rt);
    },
  };
  for (const rt of BUILTIN_RESOURCES) registry.add(rt);
  for (const crd of crds) {
    for (const v of crd.spec.versions) if (v.served) registry.add(resourceTypeFromCrd(crd, v.name));
  }
  return registry;
}
