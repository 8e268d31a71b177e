/**
 * The garbage collector and namespace lifecycle of the test cluster — what kube-controller-manager
 * does on a real cluster, and, like it, asynchronous: the store queues the uids whose owners or
 * finalizers changed, and a sweep runs on the clock (0 ms later) and writes through the store's
 * ordinary write path, so every step is a visible watch event. Each sweep handles what was queued
 * before it started; what its own writes queue runs in the next sweep, so a cascade advances one
 * level per sweep as on a real cluster.
 *
 * Per object (the real collector's rules):
 *   - a dependent whose owners are all gone (no object with the reference's uid, kind, name and
 *     namespace) is deleted (Background, or the policy its own finalizers ask for); one whose owner
 *     kind is unknown is kept (the real collector cannot resolve it either);
 *   - a dependent with some owner still present loses the references to the gone owners and to owners
 *     being deleted in the foreground;
 *   - a dependent whose remaining owners are all being deleted in the foreground is deleted, in the
 *     foreground itself when it has dependents;
 *   - an owner deleted with `Orphan` (`orphan` finalizer) has the references to it removed from its
 *     dependents, then loses the finalizer;
 *   - an owner deleted with `Foreground` (`foregroundDeletion` finalizer) loses the finalizer once no
 *     dependent with `blockOwnerDeletion: true` is left;
 *   - a terminating Namespace has everything in it deleted and is removed once it is empty.
 */
import type { Clock, DeleteOptions, KubeObject, ResourceRegistry, ResourceType } from './types';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface StoredRef {
  readonly rt: ResourceType;
  /** The stored object: read it, never change it. */
  readonly object: KubeObject;
}

/** What the collector needs from the store. Writes go through the store's ordinary path. */
export interface GcHost {
  readonly registry: ResourceRegistry;
  byUid(uid: string): StoredRef | undefined;
  dependentsOf(uid: string): StoredRef[];
  /** Every object in namespace `ns`. */
  contentsOf(ns: string): StoredRef[];
  isNamespace(rt: ResourceType): boolean;
  delete(ref: StoredRef, options: DeleteOptions): void;
  /** Replaces the main resource (metadata changes only) at the object's current resourceVersion. */
  update(ref: StoredRef, object: KubeObject): void;
  /** Removes a terminating, empty namespace. */
  removeNamespace(ref: StoredRef): void;
}

type OwnerReference = NonNullable<KubeObject['metadata']['ownerReferences']>[number];

const hasFinalizer = (o: KubeObject, f: string) => (o.metadata.finalizers ?? []).includes(f);

export class GarbageCollector {
  private queue = new Set<string>();
  private cancel: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly host: GcHost,
    private readonly clock: Clock,
  ) {}

  /** Looks at the object with `uid` in the next sweep. */
  enqueue(uid: string | undefined): void {
    if (!uid || this.closed) return;
    this.queue.add(uid);
    this.cancel ??= this.clock.setTimeout(() => {
      this.cancel = undefined;
      this.sweep();
    }, 0);
  }

  /** Whether work is queued. */
  get idle(): boolean {
    return this.queue.size === 0;
  }

  /** Handles what is queued now; the writes it makes queue the next sweep. */
  sweep(): void {
    const batch = [...this.queue];
    this.queue.clear();
    for (const uid of batch) {
      const ref = this.host.byUid(uid);
      if (ref) this.process(ref);
    }
  }

  /** Sweeps until nothing is queued (a whole cascade at once). */
  drain(): void {
    while (!this.idle) this.sweep();
    this.cancel?.();
    this.cancel = undefined;
  }

  close(): void {
    this.closed = true;
    this.cancel?.();
    this.cancel = undefined;
    this.queue.clear();
  }

  private process(ref: StoredRef): void {
    const { object } = ref;
    if (object.metadata.deletionTimestamp) {
      if (this.host.isNamespace(ref.rt)) this.terminateNamespace(ref);
      else if (hasFinalizer(object, ORPHAN_FINALIZER)) this.orphanDependents(ref);
      else if (hasFinalizer(object, FOREGROUND_FINALIZER)) this.deleteDependentsFirst(ref);
      return;
    }
    if ((object.metadata.ownerReferences ?? []).length > 0) this.checkOwners(ref);
  }

  private ownerState(dependent: StoredRef, owner: OwnerReference): 'solid' | 'dangling' | 'waiting' {
    const found = this.host.byUid(owner.uid);
    if (!found) {
      // An owner of a kind the server does not serve cannot be looked up: keep the dependent.
      return this.host.registry.byKind(owner.apiVersion, owner.kind) ? 'dangling' : 'solid';
    }
    const sameNamespace =
      !found.rt.namespaced || found.object.metadata.namespace === dependent.object.metadata.namespace;
    if (found.object.metadata.name !== owner.name || found.rt.kind !== owner.kind || !sameNamespace) {
      return 'dangling';
    }
    if (found.object.metadata.deletionTimestamp && hasFinalizer(found.object, FOREGROUND_FINALIZER))
      return 'waiting';
    return 'solid';
  }

  private checkOwners(ref: StoredRef): void {
    const owners = ref.object.metadata.ownerReferences ?? [];
    const states = owners.map((o) => this.ownerState(ref, o));
    if (states.includes('solid')) {
      if (states.every((s) => s === 'solid')) return;
      const kept = owners.filter((_, i) => states[i] === 'solid');
      this.update(ref, { ownerReferences: kept });
      return;
    }
    const hasDependents = this.host.dependentsOf(ref.object.metadata.uid ?? '').length > 0;
    const policy: DeleteOptions['propagationPolicy'] =
      states.includes('waiting') && hasDependents
        ? 'Foreground'
        : hasFinalizer(ref.object, ORPHAN_FINALIZER)
          ? 'Orphan'
          : hasFinalizer(ref.object, FOREGROUND_FINALIZER)
            ? 'Foreground'
            : 'Background';
    this.host.delete(ref, { propagationPolicy: policy, preconditions: { uid: ref.object.metadata.uid } });
  }

  private orphanDependents(ref: StoredRef): void {
    const uid = ref.object.metadata.uid;
    for (const dependent of this.host.dependentsOf(uid ?? '')) {
      const kept = (dependent.object.metadata.ownerReferences ?? []).filter((o) => o.uid !== uid);
      this.update(dependent, { ownerReferences: kept });
    }
    this.removeFinalizer(ref, ORPHAN_FINALIZER);
  }

  private deleteDependentsFirst(ref: StoredRef): void {
    const uid = ref.object.metadata.uid ?? '';
    const dependents = this.host.dependentsOf(uid);
    const blocking = dependents.filter((d) =>
      (d.object.metadata.ownerReferences ?? []).some((o) => o.uid === uid && o.blockOwnerDeletion === true),
    );
    if (blocking.length === 0) {
      this.removeFinalizer(ref, FOREGROUND_FINALIZER);
      return;
    }
    for (const d of dependents) if (!d.object.metadata.deletionTimestamp) this.checkOwners(d);
  }

  private terminateNamespace(ref: StoredRef): void {
    const contents = this.host.contentsOf(ref.object.metadata.name ?? '');
    for (const item of contents) {
      if (!item.object.metadata.deletionTimestamp)
        this.host.delete(item, { propagationPolicy: 'Background' });
    }
    if (
      this.host.contentsOf(ref.object.metadata.name ?? '').length === 0 &&
      (ref.object.metadata.finalizers ?? []).length === 0
    ) {
      this.host.removeNamespace(ref);
    }
  }

  private removeFinalizer(ref: StoredRef, finalizer: string): void {
    this.update(ref, { finalizers: (ref.object.metadata.finalizers ?? []).filter((f) => f !== finalizer) });
  }

  private update(ref: StoredRef, metadata: Partial<KubeObject['metadata']>): void {
    const next = { ...ref.object, metadata: { ...ref.object.metadata, ...metadata } };
    if (Array.isArray(next.metadata.ownerReferences) && next.metadata.ownerReferences.length === 0) {
      delete next.metadata.ownerReferences;
    }
    if (Array.isArray(next.metadata.finalizers) && next.metadata.finalizers.length === 0)
      delete next.metadata.finalizers;
    this.host.update(ref, next);
  }
}
