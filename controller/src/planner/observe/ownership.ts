/**
 * Which set an object belongs to (SPEC §3.11, §3.16): ownership first, the label as a hint.
 *
 * A set's instances are the Exporters controller-owned by it (an ownerReference with `controller: true`
 * to the ExporterSet, matched by uid), whatever their labels or names — upstream's controller labels its
 * Exporters with the template labels only and names them with `generateName` (INTEROP §1.3), so a
 * switch of controllers must find them by their owner. The `exporterset.jumpstarter.dev/name` label
 * stays a hint for what has no owner any more: an instance detached by hand or released by
 * reclaimPolicy Retain keeps it, so its name keeps counting for the set's ordinals and the set is told
 * when it changes.
 *
 * Pods and config Secrets belong to their Exporter (an ownerReference to it), and through it to the
 * Exporter's set; a Lease belongs to the sets of the Exporters it names.
 */
import {
  GROUP,
  JUMPSTARTER_GROUP,
  Kinds,
  Labels,
  type Exporter,
  type ExporterSet,
} from 'virtual-exporters/internal';

/** The owner references and labels membership reads, of any object. */
export interface OwnedMetadata {
  readonly metadata?: {
    readonly name?: string;
    readonly uid?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly ownerReferences?: readonly {
      readonly apiVersion?: string;
      readonly kind?: string;
      readonly name?: string;
      readonly uid?: string;
      readonly controller?: boolean;
    }[];
  };
}

/**
 * Whether the set controls `exporter`: a controller ownerReference to it, matched by uid when both
 * have one (a set deleted and re-created under the same name is another set), else by kind and name.
 */
export function isOwnedBy(exporter: Exporter, set: ExporterSet): boolean {
  const setUid = set.metadata?.uid;
  return (exporter.metadata?.ownerReferences ?? []).some(
    (ref) =>
      ref.controller === true &&
      ref.kind === Kinds.ExporterSet &&
      ref.name === set.metadata?.name &&
      (setUid === undefined || ref.uid === undefined || ref.uid === setUid),
  );
}

const groupOf = (apiVersion: string | undefined): string | undefined => apiVersion?.split('/')[0];

/** The name of the ExporterSet that controls `object` (its controller ownerReference), if any. */
export function controllingSetName(object: OwnedMetadata): string | undefined {
  const refs = object.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const ref = refs.find(
    (r) =>
      r?.controller === true &&
      r.kind === Kinds.ExporterSet &&
      groupOf(r.apiVersion) === GROUP &&
      typeof r.name === 'string' &&
      r.name !== '',
  );
  return ref?.name;
}

/** The set label's value, if the object carries one. */
export function labelledSetName(object: OwnedMetadata): string | undefined {
  const value = object.metadata?.labels?.[Labels.exporterSetName];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The name of the set an Exporter belongs to: its controlling set, else the one its label names. */
export function setNameOfExporter(exporter: OwnedMetadata): string | undefined {
  return controllingSetName(exporter) ?? labelledSetName(exporter);
}

/**
 * Whether the planner must see `exporter` when it plans `set`: controlled by a set of that name (the
 * planner tells a set re-created under the same name by its uid: `isOwnedBy`), or labelled with it
 * (detached and released instances, whose names stay taken).
 */
export function concernsSet(exporter: Exporter, set: ExporterSet): boolean {
  const name = set.metadata?.name;
  if (!name) return false;
  return controllingSetName(exporter) === name || labelledSetName(exporter) === name;
}

/**
 * The name of the Exporter that owns `object` (a Pod or a Secret): an ownerReference to a Jumpstarter
 * Exporter, the controller one first.
 */
export function owningExporterName(object: OwnedMetadata): string | undefined {
  const refs = object.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const exporters = refs.filter(
    (r) =>
      r?.kind === Kinds.Exporter &&
      groupOf(r.apiVersion) === JUMPSTARTER_GROUP &&
      typeof r.name === 'string' &&
      r.name !== '',
  );
  return (exporters.find((r) => r.controller === true) ?? exporters[0])?.name;
}

/** Whether `object` (a Pod or a config Secret) is owned by `exporter` (by uid when both have one). */
export function ownedByExporter(object: OwnedMetadata, exporter: Exporter): boolean {
  const { name, uid } = exporter.metadata ?? {};
  const refs = object.metadata?.ownerReferences;
  if (!name || !Array.isArray(refs)) return false;
  return refs.some(
    (r) =>
      r?.kind === Kinds.Exporter &&
      groupOf(r.apiVersion) === JUMPSTARTER_GROUP &&
      r.name === name &&
      (uid === undefined || r.uid === undefined || r.uid === uid),
  );
}
