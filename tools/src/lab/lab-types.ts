/**
 * What a lab run is given and what it reports (lab.ts runs it): the options, the samples of the
 * pools, and the report the summary and the chart are made from.
 */
import type { KubeObject } from 'virtual-exporters-test-cluster';
import type { ControllerLaunch } from './controller-launch';
import type { LabBackend } from './lab-cluster';
import type { LoadProfile } from './load-profile';
import type { LabPool } from './manifests';
import type { OffClusterReport } from './off-cluster';
import type { LabSummary, LeaseRecord, PoolReport } from './summary';
import type { PoolRow } from './table';
import type { PoolPlanning } from './workday';

export interface LabOptions {
  /** The app's manifests (CRDs, installer, classes, sets), e.g. every chart's `toJson()`. */
  readonly objects: readonly KubeObject[];
  readonly profile: LoadProfile;
  /** Wall ms of the load phase. */
  readonly durationMs: number;
  /** How much shorter the simulated world's durations are than a real lab's (see above). */
  readonly speedUp: number;
  readonly seed: number;
  readonly controller: ControllerLaunch;
  /**
   * Where the pools run: the in-process test cluster, or the real Kubernetes from the built binaries
   * (lab-cluster.ts). @default 'test'
   */
  readonly backend?: LabBackend;
  /** Pod boot time of a real lab (QEMU boot and exporter registration), lab ms. @default 20000 */
  readonly bootDelayMs?: number;
  /** Wall ms between samples of the pools. @default 500 */
  readonly sampleIntervalMs?: number;
  /** Wall ms the pools may take to fill their warm buffers before the load. @default 60000 */
  readonly warmupTimeoutMs?: number;
  /** Called with every sample, for a live view. */
  readonly onSample?: (sample: LabSample) => void;
  /** Progress messages (cluster up, objects applied, ...). */
  readonly log?: (message: string) => void;
  /** Ends the run early (Ctrl-C): the controller and the cluster are still stopped. */
  readonly signal?: AbortSignal;
  /**
   * Serve the off-cluster pools on sshd hosts on loopback when sshd can run here (else the report says
   * why not). @default true
   */
  readonly offCluster?: boolean;
  /** `workday`: the day starts on a multiple of this many wall ms (cron names whole minutes). @default 60000 */
  readonly dayAlignMs?: number;
}

export interface LabSample {
  /** Wall ms since the controller started. */
  readonly elapsedMs: number;
  readonly phase: 'warm-up' | 'load';
  /** The sets' status. */
  readonly rows: readonly PoolRow[];
  /** Leases of each pool created and neither assigned nor ended: the demand as clients see it. */
  readonly waiting: Readonly<Record<string, number>>;
}

export interface LabReport {
  readonly backend: LabBackend;
  /** What the lab ran on (`test cluster at …`, `kube-apiserver v… at …`). */
  readonly cluster: string;
  /** The pools the controllers serve (the load's targets). */
  readonly pools: readonly LabPool[];
  /** Sets of other provisioners: applied, left alone by the lab's controllers. */
  readonly ignoredPools: readonly LabPool[];
  /** Set when the app has off-cluster pools. */
  readonly offCluster?: OffClusterReport;
  /** Installer objects not applied (the controller runs as a process here). */
  readonly skipped: readonly string[];
  readonly crds: readonly string[];
  readonly plannedLeases: number;
  readonly samples: readonly LabSample[];
  /** Wall ms from the controller's start to the warm buffers being full (the load's start). */
  readonly warmupMs: number;
  /** Wall ms the load phase lasted. */
  readonly loadMs: number;
  /** The simulated day of the `workday` profile, ms since the controller started (as `samples`). */
  readonly day?: { readonly startMs: number; readonly lengthMs: number };
  /** What the profile wrote into each pool's spec (schedules, forecast), by pool name. */
  readonly planning?: Readonly<Record<string, PoolPlanning>>;
  readonly leases: readonly LeaseRecord[];
  readonly summary: LabSummary;
  readonly perPool: readonly PoolReport[];
  /** The controller's write requests from the load's start on (0 for a settled, idle lab). */
  readonly writesDuringLoad: number;
  /** 0 after a graceful stop of every controller; else the first other exit code. */
  readonly controllerExitCode: number | null;
  /** Failures of the simulators or the load (an empty list in a healthy run). */
  readonly errors: readonly string[];
}
