/**
 * The ExporterSet CRD: a pool of virtual exporter instances (JEP-0014). A superset of upstream's
 * schema: every upstream field keeps its name, type, default and validation; the additions are
 * descriptions, short name and category, the Age column, restart-safe status fields and the
 * admission rules of RuleMessages. The one relaxation: a driver's `name` may be omitted. The one
 * tightening: size bounds on the fields our rules read (bounds.ts), without which a Kubernetes API
 * server refuses the CRD as too expensive to validate.
 */
import { CATEGORY, Defaults, GROUP, Kinds, Plurals, ShortNames } from '../api/constants';
import { RuleMessages } from '../api/rules';
import { ExporterSetBounds as Bounds, ExporterSetStatusBounds } from '../core/bounds';
import { DNS1123_SUBDOMAIN_PATTERN, LABEL_VALUE_PATTERN } from '../core/names';
import { FORECAST_MODES } from '../core/forecast';
import { CRON_SHAPE_PATTERN, TIME_ZONE_PATTERN } from '../core/cron';
import {
  DEFAULT_SCHEDULE_TIME_ZONE,
  NONZERO_DURATION_PATTERN,
  SCHEDULE_NAME_PATTERN,
} from '../core/warm-buffer-schedules';
import {
  SCALE_IN_BASE_POLICIES,
  UPDATE_PERCENT_PATTERN,
  UPDATE_STRATEGY_TYPES,
} from '../core/pool-operations';
import {
  GO_DURATION_PATTERN,
  GO_DURATION_RANGE_PATTERN,
  celString,
  selectorSelectsLabelsCel,
  uniqueDriverNamesCel,
} from './cel';
import {
  array,
  bool,
  conditionsSchema,
  dateTime,
  freeformObject,
  imagesSchema,
  int32,
  int64,
  labelSelectorSchema,
  object,
  namespacedCrd,
  str,
  stringMap,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from './schema';

const driverSchema: JSONSchemaProps = object(
  `One driver of every instance's exporter: exactly one of type or ref, and a name (derived from the package when omitted).`,
  {
    config: freeformObject(
      'Driver-specific settings, passed to the driver as written. Not allowed with ref.',
    ),
    name: str(
      'Key of the driver in the exporter config. When omitted it is derived: from type jumpstarter_driver_<x>.... it is <x>, ' +
        `from another package the package name, from ref a.b.c it is c. Names must be unique after derivation. At most ${Bounds.driverName} characters.`,
      { maxLength: Bounds.driverName },
    ),
    ref: str(
      `Dot-separated path of a child driver of another driver, surfaced at the root. Excludes type and config. At most ${Bounds.driverRef} characters.`,
      { maxLength: Bounds.driverRef, pattern: '^[^.]+([.][^.]+)*$' },
    ),
    type: str(
      `Fully qualified Python class of the driver, for example jumpstarter_driver_power.driver.QemuPower. At most ${Bounds.driverType} characters.`,
      { maxLength: Bounds.driverType, minLength: 1 },
    ),
  },
  {
    'x-kubernetes-validations': [
      { rule: 'has(self.type) || has(self.ref)', message: RuleMessages.driverTypeOrRef },
      { rule: '!(has(self.type) && has(self.ref))', message: RuleMessages.driverTypeRefExclusive },
      { rule: '!has(self.ref) || !has(self.config)', message: RuleMessages.driverRefNoConfig },
      { rule: '!has(self.name) || size(self.name) > 0', message: RuleMessages.driverNameNotEmpty },
    ],
  },
);

const templateSchema: JSONSchemaProps = object('The exporter every instance of the set is created from.', {
  metadata: object('Labels and annotations copied onto every instance (Exporter and Pod).', {
    annotations: stringMap(
      `Annotations put on every instance. At most ${Bounds.templateAnnotations} annotations of at most ${Bounds.templateAnnotationsSize} characters in all (Kubernetes allows 256 KiB per object, and every instance adds its own).`,
      {
        maxProperties: Bounds.templateAnnotations,
        'x-kubernetes-validations': [
          {
            rule: `self.map(k, size(k) + size(self[k])).sum() <= ${Bounds.templateAnnotationsSize}`,
            message: RuleMessages.templateAnnotationsSize,
          },
        ],
      },
    ),
    labels: stringMap(
      `Labels put on every instance; leases select instances by them, and so must the selector. At most ${Bounds.templateLabels} labels, with valid Kubernetes label values (up to ${Bounds.labelValue} letters, digits, "-", "_" and ".").`,
      { maxProperties: Bounds.templateLabels },
      {
        maxLength: Bounds.labelValue,
        'x-kubernetes-validations': [
          {
            rule: `self.matches(${celString(LABEL_VALUE_PATTERN)})`,
            message: RuleMessages.templateLabelValue,
          },
        ],
      },
    ),
  }),
  spec: object('What every instance exports.', {
    drivers: array(
      `The drivers of every instance, in the order they appear in the exporter config; a missing name is derived from the driver package. At most ${Bounds.drivers} drivers.`,
      driverSchema,
      {
        maxItems: Bounds.drivers,
        'x-kubernetes-validations': [
          { rule: uniqueDriverNamesCel(), message: RuleMessages.driverNamesUnique },
        ],
      },
    ),
  }),
});

/** An int-or-string of the update strategy: a count, or a percentage (the strategy's rules check it). */
function intOrPercent(description: string): JSONSchemaProps {
  return { description, 'x-kubernetes-int-or-string': true, maxLength: Bounds.updatePercent };
}

/** The rule on the int-or-string field `f` of the update strategy: a count ≥ 0, or 0% to 100%. */
function intOrPercentRule(f: string, message: string) {
  return {
    rule: `!has(self.${f}) || (type(self.${f}) == int ? self.${f} >= 0 : self.${f}.matches(${celString(UPDATE_PERCENT_PATTERN)}))`,
    message,
    fieldPath: `.${f}`,
  };
}

/** CEL: the int-or-string field `f` of `self` is set to zero (0 or 0%). */
const isZero = (f: string) =>
  `has(self.${f}) && (type(self.${f}) == int ? self.${f} == 0 : self.${f} == '0%')`;

const scaleInStrategySchema: JSONSchemaProps = object(
  "Ours (ignored by upstream's controller): which idle instances go first when the pool shrinks. Leased instances never go, outdated ones go before current ones, and standbys and never-ready instances (then offline ones) before ready ones whatever the policy; within that, instances matching an earlier selector go first, and the base policy orders the rest.",
  {
    basePolicy: str(
      "Order of the instances no selector sets apart: Newest (the default: the last created go first), Oldest, or Random (a fixed order derived from the set's uid and instance names, the same in every controller replica).",
      { enum: [...SCALE_IN_BASE_POLICIES] },
    ),
    selectors: array(
      `Label selectors in priority order: idle instances matching the first go before those matching the second, and so on. At most ${Bounds.scaleInSelectors} selectors.`,
      labelSelectorSchema(
        'Instances whose labels this selects go before those matching later selectors or none.',
        {
          expressionMessages: {
            operator: RuleMessages.selectorOperator,
            values: RuleMessages.selectorValues,
          },
          bounds: {
            matchLabels: Bounds.selectorMatchLabels,
            matchExpressions: Bounds.selectorMatchExpressions,
            key: Bounds.selectorKey,
            values: Bounds.selectorValues,
            value: Bounds.labelValue,
          },
        },
      ),
      { maxItems: Bounds.scaleInSelectors, 'x-kubernetes-list-type': 'atomic' },
    ),
  },
);

const updateStrategySchema: JSONSchemaProps = object(
  "Ours (ignored by upstream's controller): how instances built from an older template revision, or created before recycleRequestedAt, are replaced.",
  {
    maxSurge: intOrPercent(
      "Proactive only: replacements started ahead of the outdated instances they replace, as a count or a percentage of the pool (rounded up). Absent: the controller's --rollout-surge-percent (25%), at least 1.",
    ),
    maxUnavailable: intOrPercent(
      'Proactive only: outdated instances the rules still need that may leave before their replacements are ready, where no surge fits (at maxReplicas, or maxSurge 0); a count or a percentage of the pool (rounded down). Absent: 1. The warm buffer may drop by this much during a rollout; with 0 at maxReplicas the rollout waits (when both round to 0 in a small pool, 1 is used).',
    ),
    type: str(
      'Proactive (the default): idle outdated instances are replaced gradually, surge first, leased ones after their lease. Opportunistic: an outdated instance is replaced only when it recycles or fails (its Pod exits after a lease, or fails; with InPlaceReuse, whose Pod outlives a lease, when its Pod ends it leaves instead of getting a new one). Unmanaged: never replaced for being outdated.',
      { enum: [...UPDATE_STRATEGY_TYPES] },
    ),
  },
  {
    'x-kubernetes-validations': [
      intOrPercentRule('maxSurge', RuleMessages.maxSurgeValue),
      intOrPercentRule('maxUnavailable', RuleMessages.maxUnavailableValue),
      {
        rule: "!has(self.type) || self.type == 'Proactive' || (!has(self.maxSurge) && !has(self.maxUnavailable))",
        message: RuleMessages.updateStrategyProactiveOnly,
      },
      {
        rule: `!((${isZero('maxSurge')}) && (${isZero('maxUnavailable')}))`,
        message: RuleMessages.updateStrategyNotBothZero,
      },
    ],
  },
);

const forecastSchema: JSONSchemaProps = object(
  "Ours (ignored by upstream's controller): forecast warm buffers. From the set's demand history (per hour: lease arrivals, the most held or waiting at once, and how many leases each arrival found created within one startup before it) the controller forecasts, for the hours of the next startup time, the warm buffer that would have served 95 % of the same hours' arrivals warm: the same hour of the week one and two weeks back, the same hour of the last days, or every recorded hour alike — whichever would have served the last recorded week at the fewest instance-hours.",
  {
    maxExtra: int32(
      'The forecast raises minAvailableReplicas by at most this much (absent: up to maxReplicas only).',
      { minimum: 0 },
    ),
    mode: str(
      'Off (absent means Off): no forecast. ForecastOnly: status.forecast and the forecast metrics show the forecast and the buffer it would set; nothing changes. Apply: the warm buffer is raised to it ahead of forecast demand, by the startup time; it never lowers the buffer, never scales in on a forecast alone, and stays under maxReplicas.',
      { enum: [...FORECAST_MODES] },
    ),
  },
);

/** A schedule's Go duration (duration, leadTime): the range grammar, one rule and message. */
const scheduleDuration = (description: string, message: string, positive = false): JSONSchemaProps =>
  str(`${description} At most ${Bounds.scheduleDuration} characters.`, {
    maxLength: Bounds.scheduleDuration,
    'x-kubernetes-validations': [
      { rule: `self.matches(${celString(GO_DURATION_RANGE_PATTERN)})`, message },
      ...(positive
        ? [
            {
              rule: `self.matches(${celString(NONZERO_DURATION_PATTERN)})`,
              message: RuleMessages.scheduleDurationPositive,
            },
          ]
        : []),
    ],
  });

const scheduleSchema: JSONSchemaProps = object(
  'A recurring window during which the warm buffer (and optionally the floor) is raised.',
  {
    cron: str(
      `When each window opens: a five-field cron expression (minute hour day-of-month month day-of-week, as a Kubernetes CronJob's) such as "0 8 * * 1-5", or @yearly, @annually, @monthly, @weekly, @daily or @hourly, read in timeZone. The controller checks the fields themselves (and so does the synth-time validation). At most ${Bounds.scheduleCron} characters.`,
      {
        maxLength: Bounds.scheduleCron,
        'x-kubernetes-validations': [
          { rule: `self.matches(${celString(CRON_SHAPE_PATTERN)})`, message: RuleMessages.scheduleCron },
        ],
      },
    ),
    duration: scheduleDuration(
      "How long each window lasts, as a Go duration such as 8h or 1h30m; longer than 0 and at most the shortest gap between the cron's occurrences (checked by the controller and at synth time).",
      RuleMessages.scheduleDuration,
      true,
    ),
    leadTime: scheduleDuration(
      "How long before each window opens the raise starts, so the instances are warm (ready) when it opens. Absent: the pool's measured p95 startup time (created to online), else 2m.",
      RuleMessages.scheduleLeadTime,
    ),
    minAvailableReplicas: int32(
      "The warm buffer while the window is open: the set keeps the larger of this and spec.minAvailableReplicas (and of any other open window's), at most maxReplicas.",
      { minimum: 0 },
    ),
    minReplicas: int32(
      'The floor while the window is open (absent: spec.minReplicas): the larger of this and spec.minReplicas applies, at most maxReplicas.',
      { minimum: 0 },
    ),
    name: str(
      `Name of the schedule, unique in the set; status and events name its windows by it. A DNS label: up to ${Bounds.scheduleName} lowercase letters, digits and "-".`,
      {
        maxLength: Bounds.scheduleName,
        'x-kubernetes-validations': [
          { rule: `self.matches(${celString(SCHEDULE_NAME_PATTERN)})`, message: RuleMessages.scheduleName },
        ],
      },
    ),
    timeZone: str(
      `IANA time zone the cron is read in, such as Europe/Berlin; absent means ${DEFAULT_SCHEDULE_TIME_ZONE}. Daylight-saving days are handled as the tz database says: a time that does not exist that day opens the window at the first time after it, and a time that occurs twice opens it once. The controller checks that the zone exists. At most ${Bounds.scheduleTimeZone} characters.`,
      {
        maxLength: Bounds.scheduleTimeZone,
        'x-kubernetes-validations': [
          { rule: `self.matches(${celString(TIME_ZONE_PATTERN)})`, message: RuleMessages.scheduleTimeZone },
        ],
      },
    ),
  },
  { required: ['name', 'cron', 'duration', 'minAvailableReplicas'] },
);

const specSchema: JSONSchemaProps = object(
  'The desired pool: its size limits, class, parameter overrides and instance template.',
  {
    forecast: forecastSchema,
    images: imagesSchema(
      'Container images for the instances; entries here replace those of the class, except the exporter image of a class with credentialsSecretRef, which only the class may set (the exporter receives the credentials).',
    ),
    maxReplicas: int32(
      'Ceiling: the most instances the set ever has. 0 means NO ceiling (upstream\'s meaning), not "no instances": `kubectl scale --replicas=0` sets 0, and then every pending lease adds an instance without limit (the Unbounded condition says so). To stop a pool from growing, set paused: true.',
      { default: Defaults.maxReplicas, minimum: 0 },
    ),
    minAvailableReplicas: int32(
      'Warm buffer: how many ready, enabled and unleased instances to keep (booting ones count as future supply).',
      { default: Defaults.minAvailableReplicas, minimum: 0 },
    ),
    minReplicas: int32('Floor: the fewest instances the set keeps, leased or not.', {
      default: Defaults.minReplicas,
      minimum: 0,
    }),
    parameters: freeformObject(
      "Provisioner settings deep-merged over the class's parameters: objects merge, anything else (lists too) replaces.",
    ),
    // No default written by the API server: absent means false, so manifests that never pause stay as
    // they were and upstream's CRDs admit them unchanged.
    paused: bool(
      'Off switch (absent means false): while true the controller creates and promotes no instance (no floor, warm buffer or lease demand is served by new ones); existing instances keep serving, recycle and scale down, and an instance recycled away is not replaced until paused is false again. The Paused condition reports it.',
    ),
    recycleRequestedAt: dateTime(
      "Ours (ignored by upstream's controller): an RFC 3339 time. Every instance created before it (by the API server's clock) is replaced once, as if its template had changed: under updateStrategy, the warm buffer kept, leased instances after their lease. Set it to now to refresh images or firmware without changing the template. It acts when the controller sees it (a time in the future only moves the line); instances the controller creates meanwhile are annotated as made for it and never recycled for it. The RecycleCompleted event and status.lastCompletedRecycle report when no such instance is left.",
    ),
    pinnedRevision: str(
      `A recorded revision of the set (the name of one of its ControllerRevisions, or its revision hash, as status.currentRevision and the instances' exporterset.jumpstarter.dev/template-revision label show) that new instances are built from instead of the template: instances of other revisions are replaced as in a template rollout (leased ones after their lease). Remove it to return to the template. A name no recorded revision has sets RevisionPinned=False and changes no instance. At most ${Bounds.pinnedRevision} characters.`,
      {
        maxLength: Bounds.pinnedRevision,
        'x-kubernetes-validations': [
          {
            rule: `self.matches(${celString(DNS1123_SUBDOMAIN_PATTERN)})`,
            message: RuleMessages.pinnedRevision,
          },
        ],
      },
    ),
    recycleStrategy: str(
      'What happens to an instance when its lease ends: ExitAndReplace (a fresh instance replaces it) or InPlaceReuse (it serves again).',
      { default: Defaults.recycleStrategy, enum: ['ExitAndReplace', 'InPlaceReuse'] },
    ),
    scaleInStrategy: scaleInStrategySchema,
    // No default written by the API server (as paused): manifests that never set it stay as they were.
    revisionHistoryLimit: int32(
      `How many recorded revisions (ControllerRevisions owned by the set, absent means ${Defaults.revisionHistoryLimit}) that no instance runs are kept for a rollback by spec.pinnedRevision; older ones are deleted. Revisions an instance runs, the template's and the pinned one are always kept.`,
      { minimum: 0 },
    ),
    scaleDownCooldown: str(
      `How long surplus must last before the set scales down, as a Go duration such as 30s, 5m or 1h30m. At most ${Bounds.scaleDownCooldown} characters.`,
      {
        default: Defaults.scaleDownCooldown,
        maxLength: Bounds.scaleDownCooldown,
        'x-kubernetes-validations': [
          {
            rule: `self.matches(${celString(GO_DURATION_PATTERN)})`,
            message: RuleMessages.scaleDownCooldownDuration,
          },
          {
            // Reported alone: a text that is no duration at all gets the rule above only.
            rule: `!self.matches(${celString(GO_DURATION_PATTERN)}) || self.matches(${celString(GO_DURATION_RANGE_PATTERN)})`,
            message: RuleMessages.scaleDownCooldownRange,
          },
        ],
      },
    ),
    schedules: array(
      `Ours (ignored by upstream's controller): windows that raise the warm buffer on a timetable (working hours, nightly runs, release days). Overlapping windows take the maximum; maxReplicas still caps the pool, and when a window closes the surplus leaves only after scaleDownCooldown, as any surplus. Status shows the open windows and the next one; events ScheduleWindowOpened and ScheduleWindowClosed mark them. At most ${Bounds.schedules} schedules, with unique names.`,
      scheduleSchema,
      {
        maxItems: Bounds.schedules,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        // The list-map key makes the API server refuse duplicates too; the rule words it as synth time does.
        'x-kubernetes-validations': [
          {
            rule: 'self.all(a, self.exists_one(b, b.name == a.name))',
            message: RuleMessages.scheduleNamesUnique,
          },
        ],
      },
    ),
    selector: labelSelectorSchema(
      "Selects the set's instances by label; it must select the template's labels.",
      {
        expressionMessages: { operator: RuleMessages.selectorOperator, values: RuleMessages.selectorValues },
        bounds: {
          matchLabels: Bounds.selectorMatchLabels,
          matchExpressions: Bounds.selectorMatchExpressions,
          key: Bounds.selectorKey,
          values: Bounds.selectorValues,
          value: Bounds.labelValue,
        },
      },
    ),
    template: templateSchema,
    updateStrategy: updateStrategySchema,
    virtualTargetClassName: str(
      'Name of the VirtualTargetClass, in the same namespace, that provisions instances.',
      {
        minLength: 1,
      },
    ),
  },
  {
    required: ['selector', 'template', 'virtualTargetClassName'],
    'x-kubernetes-validations': [
      {
        rule: 'self.maxReplicas == 0 || self.minReplicas <= self.maxReplicas',
        message: RuleMessages.minReplicasLeMax,
      },
      {
        rule: 'self.maxReplicas == 0 || self.minAvailableReplicas <= self.maxReplicas',
        message: RuleMessages.minAvailableLeMax,
      },
      {
        rule: 'self.maxReplicas == 0 || !has(self.schedules) || self.schedules.all(s, s.minAvailableReplicas <= self.maxReplicas)',
        message: RuleMessages.scheduleMinAvailableLeMax,
        fieldPath: '.schedules',
      },
      {
        rule: 'self.maxReplicas == 0 || !has(self.schedules) || self.schedules.all(s, !has(s.minReplicas) || s.minReplicas <= self.maxReplicas)',
        message: RuleMessages.scheduleMinReplicasLeMax,
        fieldPath: '.schedules',
      },
      {
        rule: selectorSelectsLabelsCel(
          'self.selector',
          'self.template.metadata.labels',
          'has(self.template.metadata) && has(self.template.metadata.labels)',
        ),
        message: RuleMessages.selectorMatchesTemplate,
        fieldPath: '.selector',
      },
    ],
  },
);

/** The status counters are plain int32s, like upstream's. */
const count = (description: string, extra: Parameters<typeof int32>[1] = {}) => int32(description, extra);

const statusSchema: JSONSchemaProps = object(
  'The pool as the controller last observed it.',
  {
    availableReplicas: count('Instances that are online, enabled and not leased.'),
    currentRevision: str(
      'The ControllerRevision new instances are built from: the pinned one, else the one recording the template (named <set>-<revision hash>).',
      { maxLength: ExporterSetStatusBounds.revisionName },
    ),
    conditions: conditionsSchema(
      "Latest observations. Available (minReplicas ready), Progressing, Degraded and ScalingLimited keep upstream Jumpstarter's reasons, rules and messages. This controller adds WarmBufferAvailable (minAvailableReplicas met), Scaling (what it is changing, or why not), InstancesHealthy (startup failures, credential waits, instances offline), SpecValid, ReplicaFailure (a write for the set failed: Exporter, config Secret, Pod or render, with the API's message), ParametersValid, Paused (spec.paused, the off switch), Unbounded (maxReplicas is 0: no ceiling), RevisionPinned (spec.pinnedRevision found or not) and ProvisionerSwitched (the class was switched to another provisioner while the set ran: which one runs it now).",
    ),
    exportersActive: count('Exporters that are enabled, online and leased.'),
    exportersDisabled: count(
      'Exporters with spec.enabled set to false. Every instance is in exactly one of exportersActive, exportersIdle, exportersDisabled and exportersOffline.',
    ),
    exportersIdle: count('Exporters that are enabled, online and not leased.'),
    forecast: object(
      'The forecast (spec.forecast.mode ForecastOnly or Apply); absent when the mode is Off.',
      {
        applied: bool(
          'True in mode Apply while the forecast raises the warm buffer above minAvailableReplicas.',
        ),
        at: dateTime('When these values were first found; unchanged values keep it.'),
        expectedPeak: count('The most leases expected held or waiting at once over the next startup time.', {
          minimum: 0,
        }),
        message: str('Why there is no forecast, when there is none.', {
          maxLength: ExporterSetStatusBounds.forecastMessage,
        }),
        mode: str('The spec.forecast.mode the forecast was made under.', {
          enum: FORECAST_MODES.filter((m) => m !== 'Off'),
        }),
        warmBuffer: count('The minAvailableReplicas the forecast would set (applied in mode Apply).', {
          minimum: 0,
        }),
      },
      { required: ['mode', 'at', 'applied'] },
    ),
    exportersOffline: count('Exporters that are enabled and not online, standbys included.'),
    lastCompletedRecycle: dateTime(
      'The spec.recycleRequestedAt whose recycle completed last: no instance created before it is left.',
    ),
    lastStartupFailureTime: dateTime('When an instance last failed before its exporter ever became ready.'),
    leasedReplicas: count('Instances currently leased.'),
    leaseWait: object(
      'Lease-wait objectives over the leases of the set served (assigned an instance) since windowStart, the last 24 hours rounded down to the hour. A lease is served warm when its instance was Online before the lease was created, else cold. Absent while no lease was served in the window.',
      {
        windowStart: dateTime('Start of the window: 24 hours ago, rounded down to the hour.'),
        leases: count('Leases served in the window.', { minimum: 0 }),
        p95Seconds: int64(
          'The 95th percentile of their waits (created to assigned; 0 for a lease served at once), in whole seconds.',
          { minimum: 0 },
        ),
        warmHitRatio: {
          type: 'number',
          description: 'The share of them served warm, from 0 to 1 (two decimals).',
          minimum: 0,
          maximum: 1,
        },
      },
      { required: ['windowStart', 'leases'] },
    ),
    nextOrdinal: int64(
      'Ordinal of the next instance (named <set>-<n>); it only grows, so instance names are never reused. The controller recomputes a value out of range from the names in use.',
      { minimum: 0, maximum: ExporterSetStatusBounds.nextOrdinal },
    ),
    observedGeneration: int64('The metadata.generation this status was computed from.', { minimum: 0 }),
    pendingLeases: count('Leases waiting for an exporter that only a new instance of this set could serve.'),
    pinnedRevision: str(
      'The ControllerRevision spec.pinnedRevision names; absent when the set is not pinned or the revision is not recorded.',
      { maxLength: ExporterSetStatusBounds.revisionName },
    ),
    podsFailed: count('Instance Pods in phase Failed.'),
    podsPending: count('Instance Pods in phase Pending.'),
    podsRunning: count('Instance Pods in phase Running.'),
    podsUnknown: count('Instance Pods in phase Unknown or Succeeded.'),
    readyReplicas: count('Instances whose exporter is online.'),
    replicas: count('All instances the set owns, including standbys and those still starting.'),
    schedules: object(
      'The scheduled windows (spec.schedules): those open now and the one that opens next. Present while the spec has schedules.',
      {
        active: array(
          'The windows open now.',
          object(
            'One open window.',
            {
              closesAt: dateTime('When the window closes.'),
              name: str('The schedule the window belongs to.', { maxLength: Bounds.scheduleName }),
              opensAt: dateTime('When the window opened.'),
            },
            { required: ['name', 'opensAt', 'closesAt'] },
          ),
          { maxItems: Bounds.schedules },
        ),
        next: object(
          'The window that opens next.',
          {
            closesAt: dateTime('When it will close.'),
            name: str('The schedule it belongs to.', { maxLength: Bounds.scheduleName }),
            opensAt: dateTime('When it will open.'),
            warmFrom: dateTime('When the raise for it starts: opensAt less the lead time.'),
          },
          { required: ['name', 'opensAt', 'closesAt', 'warmFrom'] },
        ),
      },
    ),
    effectiveMinAvailableReplicas: count(
      'The warm buffer in effect while a scheduled window (or its lead time) raises it above spec.minAvailableReplicas; absent otherwise.',
      { minimum: 0 },
    ),
    scaleDownTarget: count(
      'The instance count a pending scale-down will go to when the cooldown has passed.',
      { minimum: 0 },
    ),
    scaleDownWindowStart: dateTime(
      'When the current surplus began; the set scales down once it has lasted scaleDownCooldown.',
    ),
    selector: str('The selector in its string form, for the scale subresource (HorizontalPodAutoscaler).'),
    standbyReplicas: count(
      'Standby instances: an Exporter without a Pod, kept so leases can wait for capacity.',
    ),
    startingReplicas: count('Instances created but not yet ready.'),
    startupP95Seconds: int64(
      'The 95th percentile of the startup times (Exporter created to first Online) of the last 50 instances, in whole seconds. Scheduled windows start warming this long before they open.',
      { minimum: 0 },
    ),
    startupFailures: count(
      'Consecutive instances that failed before becoming ready; drives the creation backoff.',
      { minimum: 0 },
    ),
    templateRevision: str(
      'Hash of the template, merged parameters, images and scheduling that new instances get.',
      { maxLength: ExporterSetStatusBounds.templateRevision },
    ),
    unavailableReplicas: count(
      'Enabled instances that are not online. Unlike upstream, standby instances (an Exporter kept without a Pod so that leases wait for capacity) are not counted here, so a standby never makes Progressing or Degraded True; they are in replicas and exportersOffline.',
    ),
    updatedReplicas: count('Instances created from the current template revision.'),
  },
  {
    required: [
      'availableReplicas',
      'exportersActive',
      'exportersDisabled',
      'exportersIdle',
      'exportersOffline',
      'leasedReplicas',
      'podsFailed',
      'podsPending',
      'podsRunning',
      'podsUnknown',
      'readyReplicas',
      'replicas',
      'unavailableReplicas',
    ],
  },
);

export const exporterSetCrd: CustomResourceDefinition = namespacedCrd({
  group: GROUP,
  kind: Kinds.ExporterSet,
  plural: Plurals.ExporterSet,
  shortNames: [ShortNames.ExporterSet],
  categories: [CATEGORY],
  description:
    'A pool of virtual exporters: keeps a warm buffer of instances of a VirtualTargetClass and scales with lease demand.',
  spec: specSchema,
  status: statusSchema,
  rules: [
    {
      // The root may read metadata.name (and generateName), nothing else of ObjectMeta.
      rule: `size(self.metadata.name) <= ${Bounds.labelValue}`,
      message: RuleMessages.exporterSetNameLength,
    },
  ],
  subresources: {
    status: {},
    scale: {
      specReplicasPath: '.spec.maxReplicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    },
  },
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.status.replicas' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    { name: 'Available', type: 'integer', jsonPath: '.status.availableReplicas' },
    { name: 'Unavailable', type: 'integer', jsonPath: '.status.unavailableReplicas' },
    { name: 'Leased', type: 'integer', jsonPath: '.status.leasedReplicas' },
    { name: 'Class', type: 'string', jsonPath: '.spec.virtualTargetClassName' },
    // Ours, after upstream's (which keep their order).
    {
      name: 'Warm-Hit',
      type: 'number',
      jsonPath: '.status.leaseWait.warmHitRatio',
      description: 'Share of the leases of the last 24 h served warm.',
    },
    {
      name: 'Wait-P95',
      type: 'integer',
      jsonPath: '.status.leaseWait.p95Seconds',
      description: 'Lease-wait p95 of the last 24 h, seconds.',
    },
  ],
});
