/**
 * What a seed exercised of the raised buffers, counted for the run's summary so a run shows it tested
 * them rather than drew them: the sets whose status showed the forecast applied (mode Apply raising
 * the buffer) and those that showed a window of `spec.schedules` open while a raise was in effect, at
 * any moment of the seed. Read from the sets' status writes; it judges nothing (the oracles do).
 */
import type { ExporterSet } from 'virtual-exporters/internal';
import type { TestCluster } from 'virtual-exporters-test-cluster';

export interface RaiseCoverage {
  /** Sets whose status showed `forecast.applied: true`. */
  readonly forecastApplied: ReadonlySet<string>;
  /** Sets whose status showed an open window and `effectiveMinAvailableReplicas`. */
  readonly windowRaised: ReadonlySet<string>;
  stop(): void;
}

export function watchRaises(cluster: TestCluster, namespace: string): RaiseCoverage {
  const { store, registry } = cluster;
  const setsRt = registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
  const forecastApplied = new Set<string>();
  const windowRaised = new Set<string>();
  const watch = store.watch(setsRt, namespace, { resourceVersion: store.resourceVersion() }, (event) => {
    const set = event.object as unknown as ExporterSet;
    const name = set.metadata?.name ?? '';
    if (set.status?.forecast?.applied === true) forecastApplied.add(name);
    if (
      set.status?.effectiveMinAvailableReplicas !== undefined &&
      (set.status.schedules?.active?.length ?? 0) > 0
    ) {
      windowRaised.add(name);
    }
  });
  return { forecastApplied, windowRaised, stop: () => watch.stop() };
}
