/**
 * The set index of the caches: the Exporters of each set (those it controls and those labelled with
 * it — what `concernsSet` selects, so a pass reads its instances without scanning the namespace) and
 * the ControllerRevisions of each set (by their set label), keyed like the work queue's set keys.
 */
import { type ControllerRevision, type Exporter } from 'virtual-exporters/internal';
import type { ResourceInformer } from '../kube/informer';
import type { WireObject } from '../kube/informer-contract';
import { controllingSetName, labelledSetName, type OwnedMetadata } from '../planner';
import { objectKey } from '../queue/object-key';

/** The name of the index, in the Exporter and ControllerRevision informers. */
export const SET_INDEX = 'set';

/**
 * The keys of an Exporter's sets: the controlling one, and the labelled one when it differs (also which
 * sets its events queue, handlers.ts).
 */
export function setsOfExporter(exporter: WireObject): string[] {
  const namespace = exporter.metadata?.namespace;
  if (!namespace) return [];
  const names = new Set(
    [controllingSetName(exporter as OwnedMetadata), labelledSetName(exporter as OwnedMetadata)].filter(
      (name): name is string => name !== undefined && name !== '',
    ),
  );
  return [...names].map((name) => objectKey({ namespace, name }));
}

/** The set keys of a recorded revision: the set its label names. */
export function setOfRevision(revision: WireObject): string[] {
  const namespace = revision.metadata?.namespace;
  const name = labelledSetName(revision as OwnedMetadata);
  return namespace && name ? [objectKey({ namespace, name })] : [];
}

/** Keeps the set index of both informers. */
export function addSetIndexes(informers: {
  readonly exporters: ResourceInformer<Exporter>;
  readonly controllerRevisions: ResourceInformer<ControllerRevision>;
}): void {
  informers.exporters.addIndex(SET_INDEX, setsOfExporter);
  informers.controllerRevisions.addIndex(SET_INDEX, (revision) => setOfRevision(revision as WireObject));
}
