/**
 * The World: what every step after observe (observe.ts) reads of one pass — the set and class as the
 * pass builds from them, the spec with its raised warm buffer, the instances classified, the demand,
 * the revisions. Facts only, made once per pass.
 */
import type { ExporterSet, Provisioner, VirtualTargetClass } from 'virtual-exporters/internal';
import type { ForecastDecision } from '../demand/forecast-buffer';
import type { ObjectiveFields } from '../demand/lease-objectives';
import type { ScheduleEvaluation } from '../demand/schedules';
import type { EffectiveBuffer } from '../demand/warm-buffer-raise';
import type { InFlightCreate, LeaseCheck, PlannerOptions } from '../model/snapshot';
import type { Pin } from '../spec/pinning';
import type { RecordedRevision } from '../spec/revision-history';
import type { SpecValues } from '../spec/spec-values';
import type { InFlightNames } from './in-flight';
import type { InstanceView } from './instance-view';
import type { PendingDemand } from './leases';
import type { StatusCorrection } from './status-read';

/** What every step of the planner reads. */
export interface World {
  readonly set: ExporterSet;
  readonly cls: VirtualTargetClass | undefined;
  readonly provisioner: Pick<Provisioner, 'name' | 'validate'>;
  readonly now: number;
  readonly options: PlannerOptions;
  /** The spec with the raised warm buffer in place (warm-buffer-raise.ts): what every rule plans for. */
  readonly spec: SpecValues;
  /** The spec as written, before any raise. */
  readonly baseSpec: SpecValues;
  /** The warm buffer this pass plans for, and the raises that set it. */
  readonly buffer: EffectiveBuffer;
  /** `spec.forecast` not Off: what the forecast found (forecast-buffer.ts). */
  readonly forecast?: ForecastDecision;
  /** spec.schedules at `now` (schedules.ts). */
  readonly schedules: ScheduleEvaluation;
  readonly revision?: string;
  /** `spec.pinnedRevision` resolved (pinning.ts); when found, `set` and `cls` are the pinned view. */
  readonly pin: Pin;
  /** The set's recorded revisions (revision-history.ts). */
  readonly revisions: readonly RecordedRevision[];
  /** Whether the snapshot lists the recorded revisions (else none are recorded or pruned). */
  readonly historyTracked: boolean;
  /** The template's own revision, pinned or not. */
  readonly templateRevision?: string;
  /** Every revision an Exporter of the set carries. */
  readonly inUse: ReadonlySet<string>;
  readonly inFlight: InFlightNames;
  /** The set's own instances: not detached, not being deleted. */
  readonly owned: readonly InstanceView[];
  /** Creates in flight that the cache does not show yet. */
  readonly virtualCreates: readonly InFlightCreate[];
  readonly inFlightCreates: number;
  readonly demand: PendingDemand;
  readonly firstOrdinal: number;
  readonly leaseCheck?: LeaseCheck;
  /** Status fields not used as written (status-read.ts); `set.status` holds what is used instead. */
  readonly corrections: readonly StatusCorrection[];
  /** `status.leaseWait` and `status.startupP95Seconds` (lease-objectives.ts). */
  readonly objectives: ObjectiveFields;
}
