/**
 * Size bounds on the ExporterSet fields that its CEL rules read. When a CRD is created, a Kubernetes
 * API server estimates the worst-case cost of every rule from the maxItems, maxProperties and
 * maxLength of what the rule touches (a field without a bound is assumed to fill a 3 MiB request) and
 * refuses the CRD when a rule could cost too much. The driver-name rule compares every driver with
 * every other one and the selector rule walks the selector, so over unbounded fields the API server
 * would refuse our CRD. It also skips the rules for an object that breaks a bound, so the bounds cap
 * the runtime cost too.
 *
 * Each bound is far above real use. Where Kubernetes has its own limit for the same thing (label
 * keys and values), the bound is that limit. These are the only constraints we add to fields that
 * upstream's CRDs define (test/crds/superset.test.ts). The CRD schema (lib/crds) and the synth-time
 * validation (validate-exporter-set.ts) both read them, so both reject the same objects.
 */
import { DNS1123_SUBDOMAIN_MAX_LENGTH, LABEL_VALUE_MAX_LENGTH, TOTAL_ANNOTATION_SIZE_LIMIT } from './names';

/** A label key: an optional DNS-subdomain prefix, `/`, and a name of up to 63 characters. */
const LABEL_KEY_MAX_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH + 1 + 63;

export const ExporterSetBounds = {
  /** Drivers per instance. An exporter has a handful (power, console, network, storage). */
  drivers: 64,
  /**
   * A driver's name (a key of the exporter config), its class such as
   * `jumpstarter_driver_power.driver.QemuPower`, or its ref path such as `composite.serial`. Real
   * ones are well under 100 characters. The uniqueness rule derives a name for every driver and
   * compares every pair, so its estimated cost grows with drivers² × this length: at 64 drivers and
   * 128 characters it is about a sixth of the API server's per-rule limit (at 512, 60%), as
   * test/crds/cel-cost-budget.test.ts estimates it.
   */
  driverName: 128,
  driverType: 128,
  driverRef: 128,
  /** Labels on the instance template. Kubernetes has no count limit, and real templates have a few. */
  templateLabels: 64,
  /**
   * Annotations on the instance template: Kubernetes has no count limit, and real templates have a
   * few. The size rule sums over them, so its cost grows with this count.
   */
  templateAnnotations: 256,
  /**
   * Size of the template annotations, keys and values together: Kubernetes' 256 KiB per object, less
   * 1 KiB for the annotations the controller adds to every instance (ordinal, retiring, retained).
   * Bytes at synth time and in the controller; characters at admission (CEL counts characters).
   */
  templateAnnotationsSize: TOTAL_ANNOTATION_SIZE_LIMIT - 1024,
  /** A label value: Kubernetes' own limit, which the instances' labels must meet anyway. */
  labelValue: LABEL_VALUE_MAX_LENGTH,
  /** Entries of the selector's matchLabels. */
  selectorMatchLabels: 64,
  /** Requirements of the selector's matchExpressions. */
  selectorMatchExpressions: 32,
  /** A requirement's key: Kubernetes' limit for a label key. */
  selectorKey: LABEL_KEY_MAX_LENGTH,
  /** The values of one requirement. */
  selectorValues: 64,
  /**
   * A Go duration such as `1h30m`. Real ones are a few characters. With the digit limits of
   * GO_DURATION_RANGE_PATTERN (duration.ts), this length keeps every accepted cooldown within Go's
   * range.
   */
  scaleDownCooldown: 64,
  /** Label selectors of spec.scaleInStrategy: a few tiers (canary, a hardware generation) in real use. */
  scaleInSelectors: 8,
  /** A percentage of updateStrategy.maxSurge or maxUnavailable, such as `100%`. */
  updatePercent: 4,
  /** A ControllerRevision name (a DNS subdomain) or a revision hash. */
  pinnedRevision: 253,
  /** Scheduled warm buffers: a few (working hours, nightly runs, release days) in real use. */
  schedules: 16,
  /** A schedule's name: a DNS label, as status and events show it. */
  scheduleName: 63,
  /** A five-field cron expression; real ones are a few dozen characters. */
  scheduleCron: 128,
  /** An IANA time zone name; the longest in the tz database has about 30 characters. */
  scheduleTimeZone: 64,
  /** A schedule's duration or lead time, as scaleDownCooldown. */
  scheduleDuration: 64,
} as const;

/**
 * Bounds on the ExporterSet status fields the controller reads back. The CRD schema states
 * them and the controller checks them on every read, recomputing what breaks them (a status can be
 * written by anyone allowed to patch it, or by a hand-installed CRD without these bounds).
 */
export const ExporterSetStatusBounds = {
  /**
   * Ordinals from here on are never issued (a trillion creates away): a name beyond it cannot be an
   * old instance of the set, and a counter there would leave no safe name to issue.
   */
  nextOrdinal: 2 ** 40,
  /** Consecutive startup failures: int32, as the counters. The backoff saturates long before. */
  startupFailures: 2_147_483_647,
  /** The template revision is a label value on every instance. */
  templateRevision: LABEL_VALUE_MAX_LENGTH,
  /** A ControllerRevision name (a DNS subdomain). */
  revisionName: 253,
  /** status.forecast.message: one sentence. */
  forecastMessage: 256,
} as const;

/** Bounds of an ExporterOperation's fields (the API server prices CEL rules by them). */
export const ExporterOperationBounds = {
  /** `<provisioner-domain>/<Name>`: a DNS subdomain, a slash and a name of up to 63 characters. */
  operation: 317,
  objectName: 253,
  parameters: 32,
  parameterValue: 1024,
} as const;
