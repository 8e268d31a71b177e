/**
 * The lifecycle of instances that are not Pods (a provisioner with `lifecycle`), for one pass of one
 * set: each placed instance observed once (bounded concurrency; a failed observe is `unknown` with its
 * message, never a thrown pass), realise then record the placement on the Exporter, teardown, and the
 * leftover sweep.
 *
 * Placement: the annotations the provisioner's `realise` returns, written on the Exporter in one patch
 * with `Annotations.placement` listing their keys, after the remote side exists. A crash between the
 * two leaves a realised instance without a recorded placement: its Exporter still wants a realisation,
 * and the idempotent `realise` of the next pass finds it; if the Exporter went too, the leftover sweep
 * (`realisedNames`) tears it down.
 */
import {
  Annotations,
  instanceOrdinal,
  type Exporter,
  type InstanceLifecycle,
  type LifecycleInstance,
  type LifecycleNotice,
  type Placement,
  type ProvisionerCredentials,
} from 'virtual-exporters/internal';
import type { CoreV1Api } from '@kubernetes/client-node';
import { Limiter } from '../kube/limiter';
import type { InstanceObservation } from '../planner';

/** Observes in flight at once per set: remote calls are slow, a large set must not open hundreds. */
export const OBSERVE_CONCURRENCY = 8;
/** Leftovers torn down per pass: a host full of them is cleared over a few passes, never in one burst. */
export const LEFTOVER_TEARDOWNS_PER_PASS = 4;

/** The instance's recorded placement; undefined when none is recorded. */
export function placementOf(exporter: Exporter): Placement | undefined {
  const annotations = exporter.metadata?.annotations ?? {};
  const keys = annotations[Annotations.placement];
  if (keys === undefined) return undefined;
  const placement: Record<string, string> = {};
  for (const key of keys.split(',').filter((k) => k !== '')) {
    const value = annotations[key];
    if (value !== undefined) placement[key] = value;
  }
  return placement;
}

/** The merge patch that records `placement` on an Exporter (null removes a recorded one). */
export function placementPatch(placement: Placement | null, recorded?: Placement): Record<string, unknown> {
  const annotations: Record<string, string | null> = {};
  if (placement === null) {
    for (const key of Object.keys(recorded ?? {})) annotations[key] = null;
    annotations[Annotations.placement] = null;
  } else {
    Object.assign(annotations, placement);
    annotations[Annotations.placement] = Object.keys(placement).sort().join(',');
  }
  return { metadata: { annotations } };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Merge-patches an Exporter's metadata (the executor's client). */
export type PatchExporter = (name: string, patch: Record<string, unknown>) => Promise<void>;

/** What the lifecycle needs of the pass: the provisioner's lifecycle and the instance input. */
export interface LifecycleContext {
  readonly lifecycle: InstanceLifecycle;
  readonly setName: string;
  /** The instance as the provisioner sees it (its Exporter, parameters, the class's credentials). */
  input(exporter: Exporter): Promise<LifecycleInstance>;
}

/** One pass's lifecycle work for one set. */
export class SetLifecycle {
  private readonly placements = new Map<string, Placement>();
  /** Notices the provisioner reported during this pass, for the set's events. */
  private readonly notices: LifecycleNotice[] = [];
  /** Realises run one after another: each counts the placements the ones before it made. */
  private realising: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly context: LifecycleContext,
    private readonly exporters: ReadonlyMap<string, Exporter>,
  ) {
    for (const [name, exporter] of exporters) {
      const placement = placementOf(exporter);
      if (placement !== undefined) this.placements.set(name, placement);
    }
  }

  /** The observation of every placed instance, by name. */
  async observeAll(): Promise<ReadonlyMap<string, InstanceObservation>> {
    const observations = new Map<string, InstanceObservation>();
    await new Limiter(OBSERVE_CONCURRENCY).forEach([...this.placements], async ([name, placement]) => {
      observations.set(name, await this.observe(name, placement));
    });
    return observations;
  }

  private async observe(name: string, placement: Placement): Promise<InstanceObservation> {
    const exporter = this.exporters.get(name);
    if (exporter === undefined)
      return { state: 'unknown', reason: 'ObserveFailed', message: `${name} is gone` };
    try {
      const observed = await this.context.lifecycle.observe(await this.input(exporter), placement);
      return {
        state: observed.state,
        ...(observed.reason !== undefined ? { reason: observed.reason } : {}),
        ...(observed.message !== undefined ? { message: observed.message } : {}),
      };
    } catch (error) {
      return {
        state: 'unknown',
        reason: 'ObserveFailed',
        message: `could not observe instance ${name}: ${errorMessage(error)}`,
      };
    }
  }

  /** Realises the instance, then records its placement on the Exporter. */
  realise(name: string, patchExporter: PatchExporter): Promise<void> {
    const run = this.realising.then(async () => {
      const exporter = this.exporterOf(name);
      const others = [...this.placements].filter(([n]) => n !== name).map(([, p]) => p);
      const placement = await this.context.lifecycle.realise(await this.input(exporter), others);
      this.placements.set(name, placement);
      await patchExporter(name, placementPatch(placement));
    });
    this.realising = run.catch(() => undefined);
    return run;
  }

  /**
   * Tears the instance down; with `forget` (the Exporter's patch) the recorded placement is removed
   * too, so the Exporter, which stays, is realised again (InPlaceReuse).
   */
  async teardown(name: string, forget: PatchExporter | undefined): Promise<void> {
    const exporter = this.exporterOf(name);
    const placement = this.placements.get(name) ?? {};
    await this.context.lifecycle.teardown(await this.input(exporter), placement);
    this.placements.delete(name);
    if (forget && exporter.metadata?.annotations?.[Annotations.placement] !== undefined) {
      await forget(name, placementPatch(null, placement));
    }
  }

  /**
   * Tears down instances of this set the provisioner finds realised but no Exporter of the namespace
   * has (`existing`: the namespace's Exporter names), at most `LEFTOVER_TEARDOWNS_PER_PASS`. Returns
   * the names torn down. A leftover has no recorded placement: its teardown gets an empty one, and the
   * provisioner looks for it wherever it may be.
   */
  async sweepLeftovers(template: Exporter, existing: ReadonlySet<string>): Promise<readonly string[]> {
    const input = await this.input(template);
    const namespace = template.metadata?.namespace ?? '';
    const found = await this.context.lifecycle.realisedNames(
      input.parameters,
      input.credentials,
      namespace,
      input.trust,
    );
    const leftovers = found
      .filter((n) => !existing.has(n) && instanceOrdinal(this.context.setName, n) !== undefined)
      .slice(0, LEFTOVER_TEARDOWNS_PER_PASS);
    for (const name of leftovers) {
      const metadata = { ...template.metadata, name, annotations: {} };
      await this.context.lifecycle.teardown({ ...input, exporter: { ...template, metadata } }, {});
    }
    return leftovers;
  }

  /** The notices reported so far in this pass, each once. */
  takeNotices(): LifecycleNotice[] {
    return this.notices.splice(0);
  }

  private async input(exporter: Exporter): Promise<LifecycleInstance> {
    return { ...(await this.context.input(exporter)), notify: (notice) => this.notices.push(notice) };
  }

  private exporterOf(name: string): Exporter {
    const exporter = this.exporters.get(name);
    if (exporter === undefined) throw new Error(`instance ${name} is not in the cache`);
    return exporter;
  }
}

/**
 * Reads a class's credentials Secret, decoded by key, for a lifecycle provisioner (one GET per pass of
 * a set: the Secret cache keeps only Jumpstarter's credentials, and the key must not sit in memory).
 */
export function classCredentialsReader(
  core: Pick<CoreV1Api, 'readNamespacedSecret'>,
): (namespace: string, name: string) => Promise<ProvisionerCredentials> {
  return async (namespace, name) => {
    const secret = await core.readNamespacedSecret({ namespace, name });
    const decoded: Record<string, string> = {};
    for (const [key, value] of Object.entries(secret.data ?? {})) {
      decoded[key] = Buffer.from(value, 'base64').toString('utf8');
    }
    return decoded;
  };
}
