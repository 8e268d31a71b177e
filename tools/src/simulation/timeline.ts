/**
 * A seed's timeline for debugging a failing seed (`--trace <file>`): one line per change of the lab's
 * objects as the store sees it — cluster time since the start, the event, the object and the fields
 * the invariants read (labels that decide membership, enabled, Pod phase, lease assignment, the set's
 * spec and reported counts, an ExporterOperation's state) — and one per operation applied. Nothing here judges; it only records.
 */
import type { KubeObject, TestCluster, WatchEvent } from 'virtual-exporters-test-cluster';

/** Where the timeline's lines go. */
export interface TimelineSink {
  write(line: string): void;
}

export interface Timeline {
  /** Records an operation of the seed (or any other note) at the current cluster time. */
  note(text: string): void;
  /** A cluster time as the timeline writes it (seconds since the start). */
  stampOf(ms: number): string;
  stop(): void;
}

type Fields = Record<string, unknown>;

const get = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Fields)[k] : undefined), o);

function compact(value: Fields): string {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

/** The status of each condition when all is well (others are shown as they are). */
const HEALTHY_STATUS: Readonly<Record<string, string>> = {
  Ready: 'True',
  Available: 'True',
  WarmBufferAvailable: 'True',
  InstancesHealthy: 'True',
  SpecValid: 'True',
  ParametersValid: 'True',
  Scaling: 'False',
  Degraded: 'False',
};

/** The fields worth a line for each kind of object. */
const FIELDS: Readonly<Record<string, (o: KubeObject) => Fields>> = {
  Exporter: (o) => ({
    labels: o.metadata.labels,
    enabled: get(o, 'spec.enabled'),
    deleting: o.metadata.deletionTimestamp !== undefined || undefined,
    owner: (o.metadata.ownerReferences ?? []).find((r) => r.controller)?.name,
    annotations: o.metadata.annotations,
    online: (get(o, 'status.conditions') as { type: string; status: string }[] | undefined)
      ?.filter((c) => c.status === 'True')
      .map((c) => c.type)
      .join(','),
    lease: get(o, 'status.leaseRef.name'),
  }),
  Pod: (o) => ({
    phase: get(o, 'status.phase'),
    deleting: o.metadata.deletionTimestamp !== undefined || undefined,
  }),
  Lease: (o) => ({
    selector: get(o, 'spec.selector'),
    exporter: get(o, 'status.exporterRef.name'),
    ended: get(o, 'status.ended'),
    release: get(o, 'spec.release'),
  }),
  ExporterSet: (o) => ({
    gen: o.metadata.generation,
    spec: {
      min: get(o, 'spec.minReplicas'),
      max: get(o, 'spec.maxReplicas'),
      buffer: get(o, 'spec.minAvailableReplicas'),
      paused: get(o, 'spec.paused'),
    },
    status: {
      observed: get(o, 'status.observedGeneration'),
      replicas: get(o, 'status.replicas'),
      available: get(o, 'status.availableReplicas'),
      pending: get(o, 'status.pendingLeases'),
      failure: (get(o, 'status.conditions') as { type: string; status: string; reason: string }[] | undefined)
        ?.filter((c) => c.type === 'ReplicaFailure' && c.status === 'True')
        .map((c) => c.reason)
        .join(','),
      // Conditions that say something is wrong, with their reason: what convergence waits on.
      unwell: (get(o, 'status.conditions') as { type: string; status: string; reason: string }[] | undefined)
        ?.filter((c) => c.type !== 'ReplicaFailure' && c.status !== (HEALTHY_STATUS[c.type] ?? 'False'))
        .map((c) => `${c.type}=${c.status}/${c.reason}`)
        .join(','),
      lastStartupFailure: get(o, 'status.lastStartupFailureTime'),
    },
  }),
  ExporterOperation: (o) => ({
    spec: {
      operation: get(o, 'spec.operation'),
      exporter: get(o, 'spec.exporterName'),
      set: get(o, 'spec.exporterSetName'),
    },
    state: get(o, 'status.state'),
    reason: get(o, 'status.reason'),
    message: get(o, 'status.message'),
  }),
};

const RESOURCES = [
  ['jumpstarter.dev', 'v1alpha1', 'exporters'],
  ['jumpstarter.dev', 'v1alpha1', 'leases'],
  ['', 'v1', 'pods'],
  ['virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets'],
  ['virtualtarget.jumpstarter.dev', 'v1alpha1', 'exporteroperations'],
] as const;

/** Starts recording the namespace's changes into `sink`, with times relative to now. */
export function startTimeline(cluster: TestCluster, namespace: string, sink: TimelineSink): Timeline {
  const { store, registry, clock } = cluster;
  const t0 = clock.now();
  const stampOf = (ms: number) => `${((ms - t0) / 1000).toFixed(3).padStart(9)}s`;
  const stamp = () => stampOf(clock.now());
  const from = { resourceVersion: store.resourceVersion() };
  const onEvent = (event: WatchEvent) => {
    const o = event.object;
    const describe = FIELDS[o.kind ?? ''];
    sink.write(
      `${stamp()} ${event.type.padEnd(8)} ${o.kind}/${o.metadata.name} ${describe ? compact(describe(o)) : ''}\n`,
    );
  };
  const watches = RESOURCES.flatMap(([group, version, plural]) => {
    const rt = registry.get(group, version, plural);
    return rt ? [store.watch(rt, namespace, from, onEvent)] : [];
  });
  return {
    note: (text) => sink.write(`${stamp()} NOTE     ${text}\n`),
    stampOf,
    stop: () => watches.forEach((w) => w.stop()),
  };
}
