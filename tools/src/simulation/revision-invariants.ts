/**
 * The invariants of revision history, checked at every change of the store from the
 * objects alone:
 *
 * - **revision-modified**: a recorded revision (an `apps/v1` ControllerRevision labelled with a set)
 *   changes its `data` or `revision` — recorded revisions are immutable;
 * - **revision-in-use-pruned**: a set's ControllerRevision is deleted while an Exporter of that set,
 *   not being deleted, carries its revision — unless the set itself is gone or going (the garbage
 *   collector then deletes its revisions whatever runs them).
 */
import { Labels, type Exporter, type ExporterSet } from 'virtual-exporters/internal';
import type { KubeObject, TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';
import type { Violation } from './invariants';

export interface RevisionMonitor {
  readonly violations: readonly Violation[];
  stop(): void;
}

interface Recorded {
  readonly data: string;
  readonly revision: unknown;
}

export function startRevisionMonitor(cluster: TestCluster, namespace: string): RevisionMonitor {
  const { store, registry, clock } = cluster;
  const revisionsRt = registry.get('apps', 'v1', 'controllerrevisions')!;
  const exportersRt = registry.get('jumpstarter.dev', 'v1alpha1', 'exporters')!;
  const setsRt = registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const violations: Violation[] = [];
  const seen = new Map<string, Recorded>();

  const setGoing = (name: string): boolean => {
    try {
      const set = store.get(setsRt, namespace, name) as unknown as ExporterSet;
      return set.metadata?.deletionTimestamp !== undefined;
    } catch {
      return true;
    }
  };
  const runners = (set: string, revision: string): string[] =>
    (store.list(exportersRt, namespace).items as unknown as Exporter[])
      .filter(
        (e) =>
          e.metadata?.deletionTimestamp === undefined &&
          e.metadata?.labels?.[Labels.exporterSetName] === set &&
          e.metadata?.labels?.[Labels.templateRevision] === revision,
      )
      .map((e) => e.metadata?.name ?? '');

  const onEvent = (event: WatchEvent) => {
    const object = event.object as KubeObject & { data?: unknown; revision?: unknown };
    const name = object.metadata?.name ?? '';
    const set = object.metadata?.labels?.[Labels.exporterSetName];
    if (set === undefined) return;
    const now: Recorded = { data: JSON.stringify(object.data ?? null), revision: object.revision };
    if (event.type === 'ADDED') {
      seen.set(name, now);
      return;
    }
    const before = seen.get(name);
    if (event.type === 'MODIFIED') {
      if (before && (before.data !== now.data || before.revision !== now.revision)) {
        violations.push({
          invariant: 'revision-modified',
          at: clock.now(),
          message: `ControllerRevision ${name} of set ${set} changed after it was recorded (revision ${String(before.revision)} → ${String(now.revision)})`,
        });
      }
      return;
    }
    if (event.type !== 'DELETED') return;
    seen.delete(name);
    const hash = object.metadata?.labels?.[Labels.templateRevision];
    if (hash === undefined || setGoing(set)) return;
    const running = runners(set, hash);
    if (running.length > 0) {
      violations.push({
        invariant: 'revision-in-use-pruned',
        at: clock.now(),
        message: `ControllerRevision ${name} of set ${set} was deleted while ${running.join(', ')} run(s) revision ${hash}`,
      });
    }
  };
  const watch = store.watch(revisionsRt, namespace, { resourceVersion: store.resourceVersion() }, onEvent);
  return {
    violations,
    stop: () => watch.stop(),
  };
}
