/**
 * The executor: applies a plan's actions through the API, group by group in the plan's order (creates
 * before disables and deletes; the writes of one group concurrently), and reports what it applied. It
 * decides nothing the planner decides; what is its own:
 *
 * - **Slow start** (SPEC §3.5, slow-start.ts): Exporter creates go in batches sized by the set's window
 *   (1, 2, 4, …, kept across passes, back to 1 after a failed batch) and stop at the first failed
 *   batch, so a quota or admission problem costs one failed request, not fifty.
 * - **Overlap**: promotions and renders concern instances that exist already, so they are sent while the
 *   create batches are in flight rather than after them; creates and renders share one bound of
 *   `maxBurst` writes in flight, and everything else (config syncs, Pod and Exporter removals) follows.
 * - **Idempotence**: AlreadyExists on a create means an earlier create of this never-reused name landed;
 *   NotFound on a delete means it is gone. Both count as success.
 * - **Expectations**: every applied write is recorded until the cache shows it (expectations.ts).
 * - **ReplicaFailure**: the outcome of this pass's creates and deletes (FailedCreate/FailedDelete with
 *   the API server's message); other failed writes are returned as errors, so the key backs off.
 * - Renders happen here (config Secret, then Pod): a credential Secret without a token yet is a
 *   transient error like any other.
 *
 * The live Lease list that confirms Exporter deletes (SPEC §3.7) is a planner input: right before the
 * deletes the reconciler's `confirmDeletes` reads it and plans again (reconciler.ts `withLeaseCheck`);
 * only the deletes that plan holds are sent. Read there, the list is as fresh as the deletes need.
 */
import { type Action, type CreateExporterAction, type LabelInstanceAction, type Plan } from '../planner';
import { jsonPatch, mergePatch, patchPod, patchSecret } from '../kube/patch';
import type { KubeClients } from '../kube/clients';
import {
  DRAIN_FINALIZER,
  ConditionReasons,
  configSecretName,
  type ExporterSet,
} from 'virtual-exporters/internal';
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import { apiErrorMessage, isAlreadyExists, isNotFound } from './api-errors';
import type { Expectations } from './expectations';
import type { SetWorld } from './snapshot';
import type { SlowStart } from './slow-start';
import { resolveOptions } from '../planner/snapshot';

export interface ExecutorDeps {
  readonly clients: KubeClients;
  readonly expectations: Expectations;
  /** Each set's create window, kept across passes. */
  readonly slowStart: SlowStart;
}

export interface ReplicaFailure {
  readonly reason: typeof ConditionReasons.FailedCreate | typeof ConditionReasons.FailedDelete;
  readonly message: string;
}

export interface Execution {
  /** The actions that took effect (or had already), in order. */
  readonly applied: readonly Action[];
  /** Whether the pass sent Exporter creates or deletes (ReplicaFailure then reflects this pass). */
  readonly changedReplicas: boolean;
  readonly replicaFailure?: ReplicaFailure;
  /** Other failed writes: the pass is retried with backoff. */
  readonly errors: readonly unknown[];
}

/** Writes of one action group in flight at once, for groups outside the `maxBurst` bound. */
export const WRITE_CONCURRENCY = 16;

/** Runs `work` on every item, at most `limit` at a time; resolves when all are done. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * A counting semaphore: at most `capacity` tasks run at once; waiting tasks start in arrival order,
 * urgent ones (the create batches) before the others.
 */
export class Limiter {
  private running = 0;
  private readonly urgent: (() => void)[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: number) {}

  async run<T>(task: () => Promise<T>, urgent = false): Promise<T> {
    if (this.running >= this.capacity) {
      await new Promise<void>((resolve) => (urgent ? this.urgent : this.waiting).push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const wake = this.urgent.shift() ?? this.waiting.shift();
      if (wake) wake();
      else this.running -= 1;
    }
  }
}

/** Groups sent while the create batch is in flight (they concern instances that exist already). */
const ALONGSIDE_CREATES: ReadonlySet<Action['type']> = new Set(['PromoteStandby', 'RenderInstance']);

/**
 * Applies `plan`. `confirmDeletes`, when given, is called right before the Exporter deletes (and only
 * when there are any): it returns the plan made again with the live Lease list (SPEC §3.7, reconciler.ts
 * `withLeaseCheck`), and only the deletes that plan still holds are sent.
 */
export async function execute(
  world: SetWorld,
  plan: Plan,
  deps: ExecutorDeps,
  confirmDeletes?: () => Promise<Plan>,
): Promise<Execution> {
  const { clients, expectations } = deps;
  const { key, snapshot } = world;
  const set = snapshot.set;
  const namespace = set.metadata?.namespace ?? '';
  const applied: Action[] = [];
  const errors: unknown[] = [];
  let replicaFailure: ReplicaFailure | undefined;
  let changedReplicas = false;

  const creates = plan.actions.filter((a): a is CreateExporterAction => a.type === 'CreateExporter');
  const others = plan.actions.filter((a) => a.type !== 'CreateExporter');
  const createOne = async (action: CreateExporterAction): Promise<void> => {
    try {
      await clients.exporters.create(namespace, action.exporter);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
    expectations.expect(key, { kind: 'creating', name: action.name, standby: action.standby });
    applied.push(action);
  };

  const run = async (action: Action): Promise<void> => {
    switch (action.type) {
      case 'AddFinalizer':
        await addFinalizer(clients, set);
        break;
      case 'RemoveFinalizer':
        await removeFinalizer(clients, set);
        break;
      case 'CreateExporter':
        await createOne(action);
        return;
      case 'PromoteStandby':
        await clients.exporters.patch(namespace, action.name, mergePatch(action.patch));
        expectations.expect(key, { kind: 'promoting', name: action.name });
        break;
      case 'RenderInstance': {
        const rendered = await world.render(action.name);
        for (const object of rendered.objects) await createRendered(clients, namespace, object);
        expectations.expect(key, { kind: 'rendering', name: action.name });
        break;
      }
      case 'SyncConfigSecret': {
        const rendered = await world.render(action.name);
        const secret = rendered.objects.find((o) => o.kind === 'Secret') as V1Secret | undefined;
        if (!secret?.metadata?.name) throw new Error(`the render of ${action.name} has no config Secret`);
        try {
          // `data` replaced whole (JSON patch `add` sets or replaces the member): a merge patch would keep
          // a key someone added, the digest would never match again, and every pass would patch anew.
          await patchSecret(
            clients.core,
            namespace,
            secret.metadata.name,
            jsonPatch([{ op: 'add', path: '/data', value: secret.data ?? {} }]),
          );
        } catch (error) {
          if (!isNotFound(error)) throw error;
          await createRendered(clients, namespace, secret as Record<string, unknown>);
        }
        break;
      }
      case 'LabelInstance':
        await labelInstance(clients, namespace, action);
        expectations.expect(key, {
          kind: 'labelling',
          name: action.name,
          labels: {
            ...(action.exporter ? { exporter: action.exporter } : {}),
            ...(action.pod ? { pod: action.pod } : {}),
            ...(action.configSecret ? { configSecret: action.configSecret } : {}),
          },
        });
        break;
      case 'DeletePod':
        try {
          await clients.core.deleteNamespacedPod({
            namespace,
            name: action.name,
            ...(action.podUid ? { body: { preconditions: { uid: action.podUid } } } : {}),
          });
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
        expectations.expect(key, {
          kind: 'deletingPods',
          name: action.name,
          ...(action.podUid ? { podUid: action.podUid } : {}),
        });
        break;
      case 'ReleaseExporter': {
        const resourceVersion = world.exporters.get(action.name)?.metadata?.resourceVersion;
        const patch = {
          ...action.patch,
          metadata: { ...action.patch.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
        };
        await clients.exporters.patch(namespace, action.name, mergePatch(patch));
        expectations.expect(key, { kind: 'releasing', name: action.name });
        break;
      }
      case 'DisableExporter':
        await clients.exporters.patch(namespace, action.name, mergePatch(action.patch));
        expectations.expect(key, { kind: 'disabling', name: action.name });
        break;
      case 'DeleteExporter': {
        changedReplicas = true;
        const uid = world.exporters.get(action.name)?.metadata?.uid;
        try {
          await clients.exporters.delete(namespace, action.name, uid ? { uid } : {});
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
        expectations.expect(key, { kind: 'deleting', name: action.name });
        break;
      }
    }
    applied.push(action);
  };

  // AddFinalizer comes before everything (ACTION_ORDER), and nothing goes without it: a set deleted
  // before its drain finalizer lands is gone at once, and the garbage collector deletes its instances,
  // leased ones and their Leases too (simulation seed 862). The pass is retried with backoff. Then the
  // create batches, with promotions and renders alongside them.
  for (const action of others.filter((a) => a.type === 'AddFinalizer')) {
    try {
      await run(action);
    } catch (error) {
      return { applied, changedReplicas: false, errors: [error] };
    }
  }
  const { maxBurst } = resolveOptions(snapshot.options);
  const burst = new Limiter(maxBurst);
  // Promotions and renders take the slots the create batches leave (urgent: they go first).
  let alongsideDone: Promise<void> | undefined;
  const startAlongside = () =>
    (alongsideDone ??= runGroups(
      others.filter((a) => ALONGSIDE_CREATES.has(a.type)),
      async (group) => {
        await Promise.all(group.map((action) => burst.run(() => runCaught(action))));
      },
    ));
  let createFailed = false;
  for (let offset = 0; offset < creates.length && !createFailed;) {
    changedReplicas = true;
    const size = deps.slowStart.batchSize(key, creates.length - offset, maxBurst);
    const batch = creates.slice(offset, offset + size);
    offset += size;
    const sent = Promise.allSettled(batch.map((action) => burst.run(() => createOne(action), true)));
    startAlongside();
    const results = await sent;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      createFailed = true;
      deps.slowStart.failed(key);
      replicaFailure = { reason: ConditionReasons.FailedCreate, message: apiErrorMessage(failed.reason) };
    } else {
      deps.slowStart.succeeded(key, batch.length, maxBurst);
    }
  }
  if (creates.length === 0 && (snapshot.inFlight?.creating?.length ?? 0) === 0) deps.slowStart.forget(key);
  await startAlongside();
  const rest = others.filter((a) => a.type !== 'AddFinalizer' && !ALONGSIDE_CREATES.has(a.type));
  const confirmed =
    confirmDeletes && rest.some((a) => a.type === 'DeleteExporter')
      ? new Set(
          (await confirmDeletes()).actions.flatMap((a) => (a.type === 'DeleteExporter' ? [a.name] : [])),
        )
      : undefined;
  await runGroups(rest, (group) =>
    inParallel(group, WRITE_CONCURRENCY, async (action) => {
      if (action.type === 'DeleteExporter' && confirmed && !confirmed.has(action.name)) return;
      if (createFailed && 'afterCreates' in action && action.afterCreates) return;
      await runCaught(action);
    }),
  );
  return {
    applied,
    changedReplicas,
    ...(replicaFailure ? { replicaFailure } : {}),
    errors,
  };

  /**
   * Sends `actions` group by group in the plan's order; within a group the writes concern different
   * objects, so `send` runs them concurrently (bounded), and 20 surplus instances leave in one round
   * trip, not twenty.
   */
  async function runGroups(
    actions: readonly Action[],
    send: (group: readonly Action[]) => Promise<void>,
  ): Promise<void> {
    const groups = new Map<Action['type'], Action[]>();
    for (const action of actions) groups.set(action.type, [...(groups.get(action.type) ?? []), action]);
    for (const group of groups.values()) await send(group);
  }

  /** Runs one action; a failed delete is a ReplicaFailure, any other failed write an error. */
  async function runCaught(action: Action): Promise<void> {
    try {
      await run(action);
    } catch (error) {
      if (action.type === 'DeleteExporter') {
        replicaFailure ??= { reason: ConditionReasons.FailedDelete, message: apiErrorMessage(error) };
      } else {
        errors.push(error);
      }
    }
  }
}

async function createRendered(
  clients: KubeClients,
  namespace: string,
  object: Record<string, unknown>,
): Promise<void> {
  try {
    if (object.kind === 'Secret') {
      await clients.core.createNamespacedSecret({ namespace, body: object as V1Secret });
    } else if (object.kind === 'Pod') {
      await clients.core.createNamespacedPod({ namespace, body: object as V1Pod });
    } else {
      throw new Error(
        `the provisioner rendered a ${String(object.kind)}, which the controller does not create`,
      );
    }
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}

/**
 * Adds the missing labels to an adopted instance's Exporter, Pod and config Secret: a merge patch of
 * `metadata.labels` with only those keys, so nothing else on the objects changes. One that is gone
 * meanwhile needs no labels.
 */
async function labelInstance(
  clients: KubeClients,
  namespace: string,
  action: LabelInstanceAction,
): Promise<void> {
  const patchOf = (labels: Readonly<Record<string, string>>) => mergePatch({ metadata: { labels } });
  const ignoreNotFound = async (write: () => Promise<unknown>): Promise<void> => {
    try {
      await write();
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  };
  const { exporter, pod, configSecret } = action;
  if (exporter)
    await ignoreNotFound(() => clients.exporters.patch(namespace, action.name, patchOf(exporter)));
  if (pod) await ignoreNotFound(() => patchPod(clients.core, namespace, action.name, patchOf(pod)));
  if (configSecret) {
    await ignoreNotFound(() =>
      patchSecret(clients.core, namespace, configSecretName(action.name), patchOf(configSecret)),
    );
  }
}

/** A merge patch of the whole list, guarded by the resourceVersion it was read at (409 if it moved). */
async function addFinalizer(clients: KubeClients, set: ExporterSet): Promise<void> {
  const finalizers = [...(set.metadata?.finalizers ?? []), DRAIN_FINALIZER];
  const resourceVersion = set.metadata?.resourceVersion;
  await clients.exporterSets.patch(
    set.metadata?.namespace ?? '',
    set.metadata?.name ?? '',
    mergePatch({ metadata: { finalizers, ...(resourceVersion ? { resourceVersion } : {}) } }),
  );
}

async function removeFinalizer(clients: KubeClients, set: ExporterSet): Promise<void> {
  const index = (set.metadata?.finalizers ?? []).indexOf(DRAIN_FINALIZER);
  if (index < 0) return;
  try {
    await clients.exporterSets.patch(
      set.metadata?.namespace ?? '',
      set.metadata?.name ?? '',
      jsonPatch([
        { op: 'test', path: `/metadata/finalizers/${index}`, value: DRAIN_FINALIZER },
        { op: 'remove', path: `/metadata/finalizers/${index}` },
      ]),
    );
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
