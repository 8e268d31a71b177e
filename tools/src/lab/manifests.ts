/**
 * What the lab installs from a GitOps app's manifests (the objects of `examples/gitops`): the CRDs
 * the test cluster is started with, the namespaces to create, and the classes and sets to apply as
 * `kubectl apply` would. The installer's Deployment, RBAC and Service are skipped — the lab runs the
 * controller as a local process, and the test cluster does not enforce RBAC.
 *
 * Each set's `scaleDownCooldown` is divided by the speed-up, like every other duration of the
 * simulated world (see `lab.ts`), so the pools scale down within a short run.
 */
import { API_VERSION, Defaults, formatDuration, Kinds, parseDuration } from 'virtual-exporters/internal';
import type { KubeObject } from 'virtual-exporters-test-cluster';

/** A pool of the lab: an ExporterSet, its class and what a lease asks it for. */
export interface LabPool {
  readonly namespace: string;
  readonly name: string;
  readonly className: string;
  /** The class's provisioner; the controller serves only its own. */
  readonly provisioner: string;
  /** The set's template labels: the selector of the leases the lab creates for this pool. */
  readonly leaseLabels: Readonly<Record<string, string>>;
  readonly minAvailableReplicas: number;
  /** 0: no ceiling. */
  readonly maxReplicas: number;
}

export interface LabManifests {
  /** CustomResourceDefinitions of the app (the installer's), served by the test cluster. */
  readonly crds: readonly KubeObject[];
  /** Namespaces the objects live in (and Namespace objects of the app), in first-seen order. */
  readonly namespaces: readonly string[];
  /** Classes, then sets: applied through the API. */
  readonly objects: readonly KubeObject[];
  /** `Kind namespace/name` of the objects the lab does not apply. */
  readonly skipped: readonly string[];
  readonly pools: readonly LabPool[];
}

const CRD_KIND = 'CustomResourceDefinition';

/** Splits `objects` (in the order the app emits them) into what the lab does with each. */
export function labManifests(objects: readonly KubeObject[], options: { speedUp: number }): LabManifests {
  if (!(options.speedUp > 0)) throw new RangeError(`speedUp must be > 0 (got ${options.speedUp})`);
  const crds: KubeObject[] = [];
  const namespaces: string[] = [];
  const classes: KubeObject[] = [];
  const sets: KubeObject[] = [];
  const skipped: string[] = [];
  const addNamespace = (name: string | undefined) => {
    if (name && !namespaces.includes(name)) namespaces.push(name);
  };
  for (const object of objects) {
    const ours = object.apiVersion === API_VERSION;
    if (object.kind === CRD_KIND) crds.push(object);
    else if (object.apiVersion === 'v1' && object.kind === 'Namespace') addNamespace(object.metadata.name);
    else if (ours && object.kind === Kinds.VirtualTargetClass) classes.push(object);
    else if (ours && object.kind === Kinds.ExporterSet) sets.push(scaleCooldown(object, options.speedUp));
    else {
      skipped.push(describe(object));
      continue;
    }
    addNamespace(object.metadata.namespace);
  }
  const pools = sets.map((set) => poolOf(set, classes));
  return { crds, namespaces, objects: [...classes, ...sets], skipped, pools };
}

export function describe(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name ?? '?'}`;
}

/**
 * The set with the planning fields of a profile (`spec.schedules`, `spec.forecast`) written in as
 * given: plain objects, so the lab does not depend on their TypeScript shapes; the CRD checks them
 * when the set is applied (a cluster whose CRD lacks them prunes them).
 */
export function withPlanning(
  set: KubeObject,
  planning: { readonly schedules?: readonly object[]; readonly forecast?: object },
): KubeObject {
  const spec = { ...((set.spec ?? {}) as Record<string, unknown>) };
  if (planning.schedules !== undefined) spec.schedules = planning.schedules.map((s) => ({ ...s }));
  if (planning.forecast !== undefined) spec.forecast = { ...planning.forecast };
  return { ...set, spec };
}

/** The pools' sets among `objects`, each with its pool's planning written in (`withPlanning`). */
export function plannedSets(
  objects: readonly KubeObject[],
  pools: readonly LabPool[],
  planning: Readonly<Record<string, { readonly schedules?: readonly object[]; readonly forecast?: object }>>,
): KubeObject[] {
  return objects.flatMap((object) => {
    const pool = pools.find(
      (p) =>
        object.kind === Kinds.ExporterSet &&
        object.metadata.name === p.name &&
        (object.metadata.namespace ?? 'default') === p.namespace,
    );
    const plan = pool && planning[pool.name];
    return plan ? [withPlanning(object, plan)] : [];
  });
}

function scaleCooldown(set: KubeObject, speedUp: number): KubeObject {
  const spec = (set.spec ?? {}) as { scaleDownCooldown?: string };
  const cooldownMs = parseDuration(spec.scaleDownCooldown ?? Defaults.scaleDownCooldown);
  // Whole milliseconds: Go durations below 1 ms are valid but pointless here.
  const scaled = formatDuration(Math.max(1, Math.round(cooldownMs / speedUp)));
  return { ...set, spec: { ...spec, scaleDownCooldown: scaled } };
}

function poolOf(set: KubeObject, classes: readonly KubeObject[]): LabPool {
  const spec = set.spec as {
    virtualTargetClassName: string;
    minAvailableReplicas?: number;
    maxReplicas?: number;
    template?: { metadata?: { labels?: Record<string, string> } };
  };
  const namespace = set.metadata.namespace ?? 'default';
  const cls = classes.find(
    (c) =>
      c.metadata.name === spec.virtualTargetClassName && (c.metadata.namespace ?? 'default') === namespace,
  );
  return {
    namespace,
    name: set.metadata.name ?? '',
    className: spec.virtualTargetClassName,
    provisioner: String((cls?.spec as { provisioner?: string } | undefined)?.provisioner ?? ''),
    leaseLabels: { ...(spec.template?.metadata?.labels ?? {}) },
    minAvailableReplicas: spec.minAvailableReplicas ?? Defaults.minAvailableReplicas,
    maxReplicas: spec.maxReplicas ?? Defaults.maxReplicas,
  };
}
