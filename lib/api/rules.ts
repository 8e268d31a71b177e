/**
 * Admission rule messages. The CRDs' CEL rules (lib/crds), the synth-time validation (lib/core) and
 * the controller all use these exact texts, so a user sees the same sentence wherever a rule fires.
 * The first six are upstream's; the rest are our additions.
 */
export const RuleMessages = {
  minReplicasLeMax: 'minReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
  minAvailableLeMax:
    'minAvailableReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
  driverTypeOrRef: 'either type or ref must be set',
  driverTypeRefExclusive: 'type and ref are mutually exclusive',
  driverRefNoConfig: 'ref entries must not have config',
  /** Upstream requires a name; we accept none (derived) but reject an empty one. */
  driverNameNotEmpty: 'name must not be empty (omit it to derive the name from the driver package)',
  driverNamesUnique: 'driver names must be unique (a missing name is derived from the driver package)',
  selectorMatchesTemplate:
    'selector must match the template labels, or the set would create instances forever',
  selectorOperator: 'matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist',
  selectorValues:
    'matchExpressions values must be non-empty for In and NotIn and empty for Exists and DoesNotExist',
  scaleDownCooldownDuration: 'scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
  scaleDownCooldownRange:
    'scaleDownCooldown is out of range: write at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
  /** Our rules that keep a set whose instances the API server would refuse out of the cluster. */
  exporterSetNameLength:
    'metadata.name must be at most 63 characters: it is the value of the exporterset.jumpstarter.dev/name label on every instance',
  templateLabelValue:
    'template label values must be empty or up to 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit: every instance carries them as labels',
  templateAnnotationsSize:
    'template annotations must total at most 255 KiB (261120), keys and values together: every instance carries them, and Kubernetes allows 256 KiB of annotations per object',
  pinnedRevision:
    'pinnedRevision must name a recorded revision: a ControllerRevision name or a revision hash, up to 253 lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
  parametersObject: 'parameters must be an object (a nested map of provisioner settings)',
  /** Our rules on the pool-operation fields: scale-in order, update strategy, revisions. */
  maxSurgeValue:
    'updateStrategy.maxSurge must be a count of at least 0 or a percentage from 0% to 100%, such as 2 or 25%',
  maxUnavailableValue:
    'updateStrategy.maxUnavailable must be a count of at least 0 or a percentage from 0% to 100%, such as 1 or 25%',
  updateStrategyProactiveOnly:
    'updateStrategy.maxSurge and maxUnavailable apply to type Proactive only: remove them, or set type: Proactive',
  updateStrategyNotBothZero:
    'updateStrategy.maxSurge and maxUnavailable must not both be 0: no outdated instance could ever be replaced',
  /** Our rules on the scheduled warm buffers. */
  scheduleName:
    'schedules[].name must be up to 63 lowercase letters, digits and "-", starting and ending with a letter or digit',
  scheduleNamesUnique: 'schedules[].name must be unique among the schedules: rename one of them',
  scheduleCron:
    'schedules[].cron must be five fields separated by spaces (minute hour day-of-month month day-of-week) or one of @yearly, @annually, @monthly, @weekly, @daily, @hourly',
  scheduleDuration:
    'schedules[].duration must be a duration such as 30m, 8h or 1h30m, with at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
  scheduleDurationPositive: 'schedules[].duration must be longer than 0',
  scheduleLeadTime:
    'schedules[].leadTime must be a duration such as 2m, 10m or 1h, with at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
  scheduleTimeZone:
    'schedules[].timeZone must be an IANA time zone name such as UTC, Europe/Berlin or America/New_York',
  scheduleMinAvailableLeMax:
    'schedules[].minAvailableReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
  scheduleMinReplicasLeMax:
    'schedules[].minReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
} as const;
