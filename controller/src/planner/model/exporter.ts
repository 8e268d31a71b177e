/**
 * The Exporter objects the planner asks for and the patches it writes on them (SPEC §3.10–11): names,
 * labels, the ordinal annotation, the controller ownerReference, standby and retirement markers.
 */
import {
  API_VERSION,
  Annotations,
  JUMPSTARTER_API_VERSION,
  Kinds,
  Labels,
  type Exporter,
  type ExporterSet,
  type OwnerReference,
  type ScaleReason,
} from 'virtual-exporters/internal';

/** The controller reference from an instance to its set; undefined while the set has no uid. */
export function setOwnerReference(set: ExporterSet): OwnerReference | undefined {
  const { name, uid } = set.metadata ?? {};
  if (!name || !uid) return undefined;
  return {
    apiVersion: API_VERSION,
    kind: Kinds.ExporterSet,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Labels every instance of the set carries: the template's, then ours (ours win on a clash). */
export function instanceLabels(set: ExporterSet, revision: string, standby: boolean): Record<string, string> {
  return {
    ...(set.spec?.template?.metadata?.labels ?? {}),
    [Labels.exporterSetName]: set.metadata?.name ?? '',
    [Labels.templateRevision]: revision,
    ...(standby ? { [Labels.standby]: 'true' } : {}),
  };
}

/**
 * The Exporter to create for instance `ordinal` (named `name`, see `instanceName`): template labels and
 * annotations plus the set label, the template revision, the ordinal and, for a standby, the standby
 * label, the provisioner that made it and the requested recycle it was made under (requested-recycle.ts);
 * enabled; controller-owned by the set when the set has a uid.
 */
export function desiredExporter(
  set: ExporterSet,
  name: string,
  ordinal: number,
  revision: string,
  standby: boolean,
  provisioner?: string,
  recycleRequestedAt?: string,
): Exporter {
  const owner = setOwnerReference(set);
  const namespace = set.metadata?.namespace;
  return {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Exporter',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      labels: instanceLabels(set, revision, standby),
      annotations: {
        ...(set.spec?.template?.metadata?.annotations ?? {}),
        [Annotations.ordinal]: String(ordinal),
        ...(provisioner !== undefined ? { [Annotations.provisioner]: provisioner } : {}),
        ...(recycleRequestedAt !== undefined ? { [Annotations.recycleRequestedAt]: recycleRequestedAt } : {}),
      },
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    spec: { enabled: true },
  };
}

/** A JSON merge patch (RFC 7386) for an Exporter: `null` removes a key. */
export type ExporterMergePatch = {
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string | null>>;
    readonly annotations?: Readonly<Record<string, string | null>>;
    readonly ownerReferences?: readonly OwnerReference[];
  };
  readonly spec?: { readonly enabled?: boolean };
};

/** Disables an instance on its way out and marks the disable as the controller's (not by hand). */
export function disablePatch(reason: ScaleReason): ExporterMergePatch {
  return { metadata: { annotations: { [Annotations.retiring]: reason } }, spec: { enabled: false } };
}

/** Turns a standby into a regular instance: its Pod may be rendered. */
export function promotePatch(): ExporterMergePatch {
  return { metadata: { labels: { [Labels.standby]: null } } };
}

/**
 * reclaimPolicy Retain: disables the instance and drops the set's ownerReference, so neither the set
 * nor the garbage collector deletes it; it keeps the set label, so its ordinal stays taken. A merge
 * patch replaces the whole list, so the patch carries the other owners; send it with the Exporter's
 * resourceVersion as a precondition.
 */
export function releasePatch(exporter: Exporter, set: ExporterSet, retainedAt: string): ExporterMergePatch {
  const others = (exporter.metadata?.ownerReferences ?? []).filter(
    (ref) => !(ref.controller === true && ref.kind === Kinds.ExporterSet && ref.name === set.metadata?.name),
  );
  return {
    metadata: { annotations: { [Annotations.retained]: retainedAt }, ownerReferences: others },
    spec: { enabled: false },
  };
}
