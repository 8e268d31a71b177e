/**
 * ExporterOperations end, and stay ended, from the objects alone:
 *
 * - **operation-reopened** (at every write): an operation that finished (Complete or Failed) changes
 *   its state or reason afterwards — a terminal state is terminal.
 * - **operation-ended** (once faults stop, within the convergence bound): an operation aimed at a set
 *   being deleted — under way when the delete came, or created after it — has not finished with a
 *   reason of the API's (`OperationReasons`), or finished and still there reporting a write failure
 *   (one that is gone was deleted after its TTL: the failed write was that delete, since retried). While a set
 *   drains, an operation on it must end with a named state (the set's own drain decides its
 *   instances: ExporterSetDeleting; gone already: ExporterSetNotFound, ExporterNotFound; done by the
 *   drain: Succeeded), never hang or fail its writes in a loop.
 *
 * Whether the delete itself completes (the finalizer released, the instances gone, no leased one
 * taken) is the convergence check's and `leased-deleted`'s.
 */
import { OperationReasons, type Condition } from 'virtual-exporters/internal';
import type { TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';
import type { Violation } from './invariants';

interface Seen {
  readonly state?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly writeFailure: boolean;
  readonly deleted: boolean;
}

export interface OperationEndings {
  readonly violations: readonly Violation[];
  /** The simulation created operation `name` aimed at set `set`. */
  created(name: string, set: string): void;
  /** Set `set` was deleted: its operations not finished now are on a deleting set. */
  setDeleted(set: string): void;
  /** What keeps the operations on deleting sets from having ended; empty once all did. */
  unended(): string[];
  /** Operations on deleting sets: under way at the delete, and created after it. */
  counts(): { readonly pendingAtDelete: number; readonly afterDelete: number };
  stop(): void;
}

const FINISHED: ReadonlySet<string> = new Set(['Complete', 'Failed']);
const NAMED: ReadonlySet<string> = new Set(Object.values(OperationReasons));

export function startOperationEndings(cluster: TestCluster, namespace: string): OperationEndings {
  const { store, registry, clock } = cluster;
  const operationsRt = registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations')!;
  const violations: Violation[] = [];
  /** By name (the simulation never reuses one): the operation as last seen. */
  const seen = new Map<string, Seen>();
  const reopened = new Set<string>();
  const targets = new Map<string, string[]>();
  const deletedSets = new Set<string>();
  const pendingAtDelete = new Set<string>();
  const afterDelete = new Set<string>();

  const watch = store.watch(
    operationsRt,
    namespace,
    { resourceVersion: store.resourceVersion() },
    (event: WatchEvent) => {
      const name = event.object.metadata.name ?? '';
      const status = event.object.status as
        { state?: string; reason?: string; message?: string; conditions?: Condition[] } | undefined;
      const now: Seen = {
        ...(status?.state !== undefined ? { state: status.state } : {}),
        ...(status?.reason !== undefined ? { reason: status.reason } : {}),
        ...(status?.message !== undefined ? { message: status.message } : {}),
        writeFailure:
          status?.conditions?.some((c) => c.type === 'WriteFailure' && c.status === 'True') ?? false,
        deleted: event.type === 'DELETED',
      };
      const before = seen.get(name);
      if (
        before?.state !== undefined &&
        FINISHED.has(before.state) &&
        (now.state !== before.state || now.reason !== before.reason) &&
        !reopened.has(name)
      ) {
        reopened.add(name);
        violations.push({
          invariant: 'operation-reopened',
          at: clock.now(),
          message: `ExporterOperation ${name} finished ${before.state} (${before.reason}) and then became ${now.state ?? 'stateless'} (${now.reason})`,
        });
      }
      seen.set(name, now);
    },
  );

  const finished = (name: string) => {
    const state = seen.get(name)?.state;
    return state !== undefined && FINISHED.has(state);
  };

  return {
    violations,
    created(name, set) {
      targets.set(set, [...(targets.get(set) ?? []), name]);
      if (deletedSets.has(set)) afterDelete.add(name);
    },
    setDeleted(set) {
      deletedSets.add(set);
      for (const name of targets.get(set) ?? []) if (!finished(name)) pendingAtDelete.add(name);
    },
    unended() {
      const problems: string[] = [];
      for (const name of [...pendingAtDelete, ...afterDelete]) {
        const last = seen.get(name);
        const set = [...targets].find(([, names]) => names.includes(name))?.[0];
        const what = `ExporterOperation ${name} on deleting set ${set}`;
        if (last === undefined) problems.push(`${what} was never seen`);
        else if (last.state === undefined || !FINISHED.has(last.state)) {
          problems.push(
            `${what} is ${last.state ?? 'without a state'}${last.deleted ? ' and was deleted' : ''} (${last.reason}: ${last.message})`,
          );
        } else if (last.reason === undefined || !NAMED.has(last.reason)) {
          problems.push(`${what} finished ${last.state} with reason ${last.reason}, not one of the API's`);
        } else if (last.writeFailure && !last.deleted) {
          // Gone: the write that failed was its delete after ttlSecondsAfterFinished, and a retry made it.
          problems.push(`${what} finished ${last.state} reporting WriteFailure=True`);
        }
      }
      return problems;
    },
    counts: () => ({ pendingAtDelete: pendingAtDelete.size, afterDelete: afterDelete.size }),
    stop: () => watch.stop(),
  };
}
