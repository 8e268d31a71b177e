/**
 * Adoption (SPEC §3.16): the labels the controller adds to the instances it owns but did not label —
 * those upstream's controller made (template labels only, INTEROP §1.3), or ones whose labels someone
 * removed. What an instance of ours carries:
 *
 * - the Exporter: `exporterset.jumpstarter.dev/name` (the set) and the template revision;
 * - its Pod: the set label and the revision of its Exporter;
 * - its config Secret: the set label.
 *
 * An owned Exporter without a revision label is taken as built from the current template (see
 * `classifyInstance`) and labelled with the current revision: an instance made by another controller
 * from this very set is as current as the set says, and switching controllers must not roll the whole
 * pool. A revision label that is there is never rewritten (an outdated instance stays outdated until the
 * rollout replaces it), and neither is anything else on the object: one merge patch per object adds
 * only the keys that are missing (or, for the set label, wrong), so a labelled pool plans nothing.
 *
 * Pods and config Secrets are labelled only when their Exporter owns them: an object of that name
 * someone else made is not the controller's to change. Neither is a Pod that ended or is going away
 * labelled: it is about to be replaced.
 */
import { Labels, type ExporterSet } from 'virtual-exporters/internal';
import type { LabelInstanceAction } from '../model/actions';
import type { InstanceView } from '../observe/instance-view';
import { ownedByExporter, type OwnedMetadata } from '../observe/ownership';
import { isLive } from '../observe/runtime';
import type { World } from '../observe/world';
import type { Leaving } from './members';

type LabelMap = Readonly<Record<string, string>>;

/** The labels of `wanted` that `object` lacks (or, for keys in `exact`, carries another value of). */
function lacking(object: OwnedMetadata, wanted: LabelMap, exact: ReadonlySet<string>): LabelMap | undefined {
  const labels = object.metadata?.labels ?? {};
  const missing: Record<string, string> = {};
  for (const [key, value] of Object.entries(wanted)) {
    const present = labels[key];
    if (present === undefined || (exact.has(key) && present !== value)) missing[key] = value;
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}

const SET_LABEL_EXACT: ReadonlySet<string> = new Set([Labels.exporterSetName]);

/**
 * The labels to add to an owned instance, its Pod and its config Secret; undefined when they carry
 * them all. `revision` is the set's current template revision (undefined: unknown, no revision label
 * is added).
 */
export function labelInstance(
  view: InstanceView,
  set: ExporterSet,
  revision: string | undefined,
): LabelInstanceAction | undefined {
  const setName = set.metadata?.name;
  if (!setName) return undefined;
  const exporter = view.source.exporter;
  const exporterRevision = view.revision ?? revision;
  const wanted: LabelMap = {
    [Labels.exporterSetName]: setName,
    ...(exporterRevision !== undefined && exporterRevision !== ''
      ? { [Labels.templateRevision]: exporterRevision }
      : {}),
  };
  const onExporter = lacking(exporter, wanted, SET_LABEL_EXACT);
  const pod = view.source.pod as OwnedMetadata | undefined;
  const onPod =
    // Only a live Pod is worth a label: one going away or ended is about to be replaced.
    pod !== undefined && isLive(view.runtime) && ownedByExporter(pod, exporter)
      ? lacking(pod, wanted, SET_LABEL_EXACT)
      : undefined;
  const secret = view.source.configSecret as OwnedMetadata | undefined;
  const onSecret =
    secret !== undefined && ownedByExporter(secret, exporter)
      ? lacking(secret, { [Labels.exporterSetName]: setName }, SET_LABEL_EXACT)
      : undefined;
  if (!onExporter && !onPod && !onSecret) return undefined;
  return {
    type: 'LabelInstance',
    name: view.name,
    ...(onExporter ? { exporter: onExporter } : {}),
    ...(onPod ? { pod: onPod } : {}),
    ...(onSecret ? { configSecret: onSecret } : {}),
  };
}

/** Our labels on owned instances that lack them, but not on those leaving or whose labels are in flight. */
export function adoptionLabels(
  world: World,
  removed: ReadonlySet<string>,
  leaving: readonly Leaving[],
): LabelInstanceAction[] {
  const leavingNames = new Set(leaving.map(({ view }) => view.name));
  const actions: LabelInstanceAction[] = [];
  for (const view of world.owned) {
    if (removed.has(view.name) || leavingNames.has(view.name) || world.inFlight.labelling.has(view.name))
      continue;
    const action = labelInstance(view, world.set, world.revision);
    if (action) actions.push(action);
  }
  return actions;
}
