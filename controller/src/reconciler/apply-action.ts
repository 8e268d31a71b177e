/**
 * Applies one planned action through the API and says how it went. Idempotence is decided here: names
 * are never reused, so AlreadyExists on a create of an object we own means an earlier create of it
 * landed, and NotFound on a delete means it is gone; both are `done-already`, which counts as success.
 * An Exporter create that finds its name taken by an Exporter the set does not own (one made by hand
 * or by another tool) is `taken`: the name is skipped at once, nothing waits for it. An Exporter delete
 * is guarded by the uid and resourceVersion the pass decided on; refused (409) it is `changed`. Renders
 * happen here (config Secret, then Pod): a credential Secret without a token yet fails like any other
 * write.
 *
 * A failure carries the reason of the write that failed (§3.18: `FailedCreatePod`,
 * `FailedCreateSecret`, `FailedRender`, ...), named by the step, not just by the action: one
 * RenderInstance is a render, a Secret create and a Pod create.
 */
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import {
  ConditionReasons as R,
  DRAIN_FINALIZER,
  configSecretName,
  type ExporterSet,
} from 'virtual-exporters/internal';
import { apiErrorMessage, isAlreadyExists, isConflict, isNotFound } from '../kube/api-errors';
import type { KubeClients } from '../kube/clients';
import { jsonPatch, mergePatch, patchPod, patchSecret } from '../kube/patch';
import { isOwnedBy, type Action, type LabelInstanceAction } from '../planner';
import type { ActionOutcome } from './execution';
import type { PatchExporter } from './instance-lifecycle';
import type { SetWorld } from './read-set-world';
import { FailedStep, step, writeReasonOf } from './write-failure';

const APPLIED: ActionOutcome = { kind: 'applied' };
const DONE_ALREADY: ActionOutcome = { kind: 'done-already' };

/** Applies `action` to the set of `world`; never throws (a failed write is the `failed` outcome). */
export async function applyAction(
  action: Action,
  clients: KubeClients,
  world: SetWorld,
): Promise<ActionOutcome> {
  try {
    return await write(action, clients, world);
  } catch (error) {
    const failed = error instanceof FailedStep ? error : undefined;
    const cause = failed ? failed.cause : error;
    return {
      kind: 'failed',
      error: cause,
      reason: failed?.reason ?? writeReasonOf(action.type),
      message: apiErrorMessage(cause),
    };
  }
}

async function write(action: Action, clients: KubeClients, world: SetWorld): Promise<ActionOutcome> {
  const set = world.snapshot.set;
  const namespace = set.metadata?.namespace ?? '';
  switch (action.type) {
    case 'AddFinalizer':
      await addFinalizer(clients, set);
      return APPLIED;
    case 'RemoveFinalizer':
      return removeFinalizer(clients, set);
    case 'CreateExporter':
      return createExporter(clients, set, action.exporter);
    case 'PromoteStandby':
    case 'DisableExporter':
      await clients.exporters.patch(namespace, action.name, mergePatch(action.patch));
      return APPLIED;
    case 'RenderInstance': {
      if (world.lifecycle) {
        await step(R.FailedRealise, () => world.lifecycle!.realise(action.name, patchOf(clients, namespace)));
        return APPLIED;
      }
      const rendered = await step(R.FailedRender, () => world.render(action.name));
      for (const object of rendered.objects) await createRendered(clients, namespace, object);
      return APPLIED;
    }
    case 'SyncConfigSecret':
      await syncConfigSecret(clients, world, action.name);
      return APPLIED;
    case 'LabelInstance':
      await labelInstance(clients, namespace, action);
      return APPLIED;
    case 'DeletePod':
      if (world.lifecycle) {
        await step(R.FailedTeardown, () =>
          world.lifecycle!.teardown(action.name, patchOf(clients, namespace)),
        );
        return APPLIED;
      }
      return unless(isNotFound, () =>
        clients.core.deleteNamespacedPod({
          namespace,
          name: action.name,
          ...(action.podUid ? { body: { preconditions: { uid: action.podUid } } } : {}),
        }),
      );
    case 'ReleaseExporter': {
      // Guarded by the resourceVersion the planner saw (409 if the Exporter changed since).
      const resourceVersion = world.exporters.get(action.name)?.metadata?.resourceVersion;
      const patch = {
        ...action.patch,
        metadata: { ...action.patch.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
      };
      await clients.exporters.patch(namespace, action.name, mergePatch(patch));
      return APPLIED;
    }
    case 'DeleteExporter':
      return deleteExporter(clients, world, action.name);
    case 'RecordRevision':
      // Named after its hash: AlreadyExists means this revision is recorded (and is never updated).
      return unless(isAlreadyExists, () => clients.controllerRevisions.create(namespace, action.revision));
    case 'DeleteRevision':
      return unless(isNotFound, () =>
        clients.controllerRevisions.delete(
          namespace,
          action.revisionName,
          action.uid ? { uid: action.uid } : {},
        ),
      );
  }
}

/**
 * Deletes an instance's Exporter only as the pass saw it (§3.7): preconditions on the uid and the
 * resourceVersion the decision was made on. Whatever changed it since — a lease assigned after the live
 * Lease list (Jumpstarter writes `status.leaseRef`), an enable by hand — makes the server refuse (409):
 * `changed`, and the next pass decides on what it has become. A lifecycle's remote side goes once the
 * delete landed, so a refused one leaves the instance whole (a failed teardown: the leftover sweep's).
 */
async function deleteExporter(clients: KubeClients, world: SetWorld, name: string): Promise<ActionOutcome> {
  const namespace = world.snapshot.set.metadata?.namespace ?? '';
  const seen = world.exporters.get(name)?.metadata;
  const guard = {
    ...(seen?.uid ? { uid: seen.uid } : {}),
    ...(seen?.resourceVersion ? { resourceVersion: seen.resourceVersion } : {}),
  };
  let outcome: ActionOutcome;
  try {
    outcome = await unless(isNotFound, () => clients.exporters.delete(namespace, name, guard));
  } catch (error) {
    if (!isConflict(error)) throw error;
    return { kind: 'changed', message: apiErrorMessage(error) };
  }
  if (world.lifecycle && seen?.uid !== undefined) {
    await step(R.FailedTeardown, () => world.lifecycle!.teardown(name, undefined));
  }
  return outcome;
}

/** The Exporter metadata patch a lifecycle records placements with. */
function patchOf(clients: KubeClients, namespace: string): PatchExporter {
  return async (name, patch) => {
    await clients.exporters.patch(namespace, name, mergePatch(patch));
  };
}

/** Sends `request`; the error `done` recognises means the write had already happened. */
async function unless(
  done: (error: unknown) => boolean,
  request: () => Promise<unknown>,
): Promise<ActionOutcome> {
  try {
    await request();
    return APPLIED;
  } catch (error) {
    if (!done(error)) throw error;
    return DONE_ALREADY;
  }
}

async function createRendered(
  clients: KubeClients,
  namespace: string,
  object: Record<string, unknown>,
): Promise<ActionOutcome> {
  if (object.kind === 'Secret') {
    return step(R.FailedCreateSecret, () =>
      unless(isAlreadyExists, () =>
        clients.core.createNamespacedSecret({ namespace, body: object as V1Secret }),
      ),
    );
  }
  if (object.kind === 'Pod') {
    return step(R.FailedCreatePod, () =>
      unless(isAlreadyExists, () => clients.core.createNamespacedPod({ namespace, body: object as V1Pod })),
    );
  }
  throw new FailedStep(
    R.FailedRender,
    new Error(`the provisioner rendered a ${String(object.kind)}, which the controller does not create`),
  );
}

/**
 * Creates an Exporter. AlreadyExists is looked into: the set's own Exporter of that name (an earlier
 * create that landed, e.g. before a crash) is `done-already`; any other is `taken`.
 */
async function createExporter(
  clients: KubeClients,
  set: ExporterSet,
  exporter: Parameters<KubeClients['exporters']['create']>[1],
): Promise<ActionOutcome> {
  const namespace = set.metadata?.namespace ?? '';
  try {
    await clients.exporters.create(namespace, exporter);
    return APPLIED;
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const name = exporter.metadata?.name ?? '';
  let existing;
  try {
    existing = await clients.exporters.get(namespace, name);
  } catch (error) {
    // Gone meanwhile: whoever held it, a name once taken is not issued again (a Lease may name it).
    if (isNotFound(error)) return { kind: 'taken', owner: 'deleted since' };
    throw error;
  }
  if (isOwnedBy(existing, set)) return DONE_ALREADY;
  const owner = existing.metadata?.ownerReferences?.find((ref) => ref.controller === true);
  return {
    kind: 'taken',
    owner: owner ? `controlled by ${owner.kind} ${owner.name}` : 'controlled by nothing',
  };
}

/** Writes the config Secret the instance renders to, creating it when it is gone. */
async function syncConfigSecret(clients: KubeClients, world: SetWorld, name: string): Promise<void> {
  const namespace = world.snapshot.set.metadata?.namespace ?? '';
  const rendered = await step(R.FailedRender, () => world.render(name));
  const secret = rendered.objects.find((o) => o.kind === 'Secret') as V1Secret | undefined;
  if (!secret?.metadata?.name) {
    throw new FailedStep(R.FailedRender, new Error(`the render of ${name} has no config Secret`));
  }
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
    if (!isNotFound(error)) throw new FailedStep(R.FailedUpdateSecret, error);
    await createRendered(clients, namespace, secret as Record<string, unknown>);
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
  const { exporter, pod, configSecret } = action;
  if (exporter) {
    await unless(isNotFound, () => clients.exporters.patch(namespace, action.name, patchOf(exporter)));
  }
  if (pod) await unless(isNotFound, () => patchPod(clients.core, namespace, action.name, patchOf(pod)));
  if (configSecret) {
    await unless(isNotFound, () =>
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

/** A JSON patch that removes the finalizer only where it still is (the `test` fails otherwise). */
async function removeFinalizer(clients: KubeClients, set: ExporterSet): Promise<ActionOutcome> {
  const index = (set.metadata?.finalizers ?? []).indexOf(DRAIN_FINALIZER);
  if (index < 0) return DONE_ALREADY;
  return unless(isNotFound, () =>
    clients.exporterSets.patch(
      set.metadata?.namespace ?? '',
      set.metadata?.name ?? '',
      jsonPatch([
        { op: 'test', path: `/metadata/finalizers/${index}`, value: DRAIN_FINALIZER },
        { op: 'remove', path: `/metadata/finalizers/${index}` },
      ]),
    ),
  );
}
