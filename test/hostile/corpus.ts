/**
 * The hostile-input corpus of issue 7 that admission decides: malformed or adversarial
 * ExporterSets, VirtualTargetClasses, Exporters and Leases, each as the writes a client would send.
 * Every case starts from a valid object (so the one change is what is rejected). The writes are data:
 * test/hostile/admission-corpus.test.ts runs them on the test cluster's store (our CRDs' structural
 * schema, defaults and CEL rules, and the API server's ObjectMeta rules, exactly as on every request
 * of the test cluster), test/admission/real-server.kube.test.ts on a real kube-apiserver.
 */
import type { JsonObject } from '../../lib/api';
import type { Resource, Write } from '../admission/writes';

export type { Resource, Write };

export const NS = 'lab';

export interface HostileCase {
  readonly kind: 'ExporterSet' | 'VirtualTargetClass' | 'Exporter' | 'Lease' | 'ExporterOperation';
  readonly what: string;
  /** The writes, in order: every one but the last is admitted; the last is refused. */
  readonly writes: readonly Write[];
  /** The whole `Status.message` of the 4xx answer. */
  readonly message: string;
  /** For ExporterSets, classes and operations: the object, to check that synth-time validation refuses it too. */
  readonly object?: JsonObject;
}

type Json = Record<string, any>;

export function exporterSet(change: (set: Json) => void = () => {}): Json {
  const set: Json = {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'pool', namespace: NS },
    spec: {
      minReplicas: 0,
      maxReplicas: 4,
      minAvailableReplicas: 1,
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { board: 'qemu-x86' } },
      template: {
        metadata: { labels: { board: 'qemu-x86' } },
        spec: { drivers: [{ name: 'power', type: 'jumpstarter_driver_power.driver.QemuPower' }] },
      },
    },
  };
  change(set);
  return set;
}

export function virtualTargetClass(change: (cls: Json) => void = () => {}): Json {
  const cls: Json = {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'qemu', namespace: NS },
    spec: { provisioner: 'qemu.jumpstarter.dev', parameters: { arch: 'x86_64' } },
  };
  change(cls);
  return cls;
}

export function exporter(change: (exporter: Json) => void = () => {}): Json {
  const object: Json = {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: { name: 'pool-0', namespace: NS },
    spec: { enabled: true },
  };
  change(object);
  return object;
}

export function lease(change: (lease: Json) => void = () => {}): Json {
  const object: Json = {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l-1', namespace: NS },
    spec: { clientRef: { name: 'ci' }, selector: { matchLabels: { board: 'qemu-x86' } }, duration: '1h' },
  };
  change(object);
  return object;
}

export function exporterOperation(change: (op: Json) => void = () => {}): Json {
  const object: Json = {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterOperation',
    metadata: { name: 'recycle-pool-0', namespace: NS },
    spec: { operation: 'Recycle', exporterName: 'pool-0' },
  };
  change(object);
  return object;
}

const create = (resource: Resource, object: Json): Write[] => [{ verb: 'create', resource, object }];

/** Creates the valid object, then writes its status (Jumpstarter's /status writes). */
const writeStatus = (resource: Resource, object: Json, status: unknown): Write[] => [
  ...create(resource, object),
  { verb: 'patch', resource, name: object.metadata.name, patch: { status }, subresource: 'status' },
];

/** Creates the valid object, then merge-patches it. */
const patchAfterCreate = (resource: Resource, object: Json, patch: Json): Write[] => [
  ...create(resource, object),
  { verb: 'patch', resource, name: object.metadata.name, patch },
];

/** `<Kind>.<group> "<name>" is invalid: ` and the causes, as kube-apiserver words a 422. */
const invalid = (object: Json, causes: string) =>
  `${object.kind}.${object.apiVersion.split('/')[0]} "${object.metadata.name}" is invalid: ${causes}`;

const setCase = (what: string, change: (set: Json) => void, causes: string): HostileCase => {
  const object = exporterSet(change);
  return {
    kind: 'ExporterSet',
    what,
    writes: create('exporterSets', object),
    message: invalid(object, causes),
    object,
  };
};
/** The status counters an ExporterSet status must carry (upstream's required ones). */
const SET_COUNTERS = Object.fromEntries(
  [
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
  ].map((k) => [k, 0]),
);
const setStatusCase = (what: string, status: Json, causes: string): HostileCase => {
  const object = exporterSet(() => {});
  return {
    kind: 'ExporterSet',
    what,
    writes: writeStatus('exporterSets', object, { ...SET_COUNTERS, ...status }),
    message: invalid(object, causes),
  };
};
const classCase = (what: string, change: (cls: Json) => void, causes: string): HostileCase => {
  const object = virtualTargetClass(change);
  return {
    kind: 'VirtualTargetClass',
    what,
    writes: create('classes', object),
    message: invalid(object, causes),
    object,
  };
};
const exporterCase = (what: string, writes: Write[], causes: string): HostileCase => ({
  kind: 'Exporter',
  what,
  writes,
  message: invalid(exporter(), causes),
});
const leaseCase = (what: string, writes: Write[], causes: string): HostileCase => ({
  kind: 'Lease',
  what,
  writes,
  message: invalid(lease(), causes),
});

const operationCase = (what: string, change: (op: Json) => void, causes: string): HostileCase => {
  const object = exporterOperation(change);
  return {
    kind: 'ExporterOperation',
    what,
    writes: create('operations', object),
    message: invalid(object, causes),
    object,
  };
};

const many = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
const drivers = (set: Json, ...list: unknown[]) => (set.spec.template.spec.drivers = list);
const expressions = (set: Json, ...list: unknown[]) => (set.spec.selector.matchExpressions = list);

/** The note the API server appends when type errors kept it from running the CEL rules. */
const CEL_SKIPPED =
  '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/** The CEL message of spec.pinnedRevision (RuleMessages.pinnedRevision, spelled out: the corpus pins the wording). */
const PINNED_REVISION =
  'pinnedRevision must name a recorded revision: a ControllerRevision name or a revision hash, up to 253 lowercase letters, digits, "-" and ".", starting and ending with a letter or digit';

/** The CEL message of a schedule's cron (RuleMessages.scheduleCron, spelled out). */
const SCHEDULE_CRON =
  'schedules[].cron must be five fields separated by spaces (minute hour day-of-month month day-of-week) or one of @yearly, @annually, @monthly, @weekly, @daily, @hourly';

/** A valid schedule with `change` over it (an undefined value removes the field). */
const schedule = (change: Json = {}): Json =>
  JSON.parse(
    JSON.stringify({
      name: 'work',
      cron: '0 8 * * 1-5',
      duration: '10h',
      minAvailableReplicas: 2,
      ...change,
    }),
  );

/** The 422 message for these causes, worded as kube-apiserver words it (a list in brackets when several). */
const causes = (...list: string[]) => (list.length === 1 ? list[0] : `[${list.join(', ')}]`);

export const CORPUS: readonly HostileCase[] = [
  // --- ExporterSet: wrong types, huge and negative sizes ---
  setCase(
    'minReplicas as a string',
    (s) => (s.spec.minReplicas = '3'),
    causes(
      'spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'maxReplicas as a fraction',
    (s) => (s.spec.maxReplicas = 1.5),
    causes(
      'spec.maxReplicas: Invalid value: "float64": spec.maxReplicas in body must be of type int32: "float64"',
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.maxReplicas',
      '.spec.maxReplicas: Invalid value: 0: .spec.maxReplicas accessor error: 1.5 is of the type float64, expected int64',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'maxReplicas as a boolean',
    (s) => (s.spec.maxReplicas = true),
    causes(
      'spec.maxReplicas: Invalid value: "": spec.maxReplicas in body must be of type int32: ""',
      '.spec.maxReplicas: Invalid value: 0: .spec.maxReplicas accessor error: true is of the type bool, expected int64',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a negative minReplicas',
    (s) => (s.spec.minReplicas = -1),
    causes(
      'spec.minReplicas: Invalid value: -1: spec.minReplicas in body should be greater than or equal to 0',
    ),
  ),
  setCase(
    'a negative minAvailableReplicas',
    (s) => (s.spec.minAvailableReplicas = -100),
    causes(
      'spec.minAvailableReplicas: Invalid value: -100: spec.minAvailableReplicas in body should be greater than or equal to 0',
    ),
  ),
  setCase(
    'maxReplicas beyond int32',
    (s) => (s.spec.maxReplicas = 2 ** 31),
    causes(
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.maxReplicas',
      '.spec.maxReplicas: Invalid value: 2147483648: should be less than or equal to 2147483647',
    ),
  ),
  setCase(
    'minAvailableReplicas of 1e300',
    (s) => (s.spec.minAvailableReplicas = 1e300),
    causes(
      'spec.minAvailableReplicas: Invalid value: "float64": spec.minAvailableReplicas in body must be of type int32: "float64"',
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.minAvailableReplicas',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'minReplicas above maxReplicas',
    (s) => (s.spec.minReplicas = 5),
    causes(
      'spec: Invalid value: minReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
    ),
  ),
  setCase(
    'minAvailableReplicas above maxReplicas',
    (s) => (s.spec.minAvailableReplicas = 2 ** 31 - 1),
    causes(
      'spec: Invalid value: minAvailableReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
    ),
  ),
  setCase(
    'a spec that is a string',
    (s) => (s.spec = 'minReplicas: 1'),
    causes(
      'spec: Invalid value: "string": spec in body must be of type object: "string"',
      '.spec.maxReplicas: Invalid value: 0: .spec.maxReplicas accessor error: minReplicas: 1 is of the type string, expected map[string]interface{}',
      CEL_SKIPPED,
    ),
  ),
  // --- durations ---
  setCase(
    'a cooldown in words',
    (s) => (s.spec.scaleDownCooldown = '5 minutes'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "5 minutes": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'a negative cooldown',
    (s) => (s.spec.scaleDownCooldown = '-5m'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "-5m": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'an empty cooldown',
    (s) => (s.spec.scaleDownCooldown = ''),
    causes(
      'spec.scaleDownCooldown: Invalid value: "": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'a cooldown as a number',
    (s) => (s.spec.scaleDownCooldown = 300),
    causes(
      'spec.scaleDownCooldown: Invalid value: "integer": spec.scaleDownCooldown in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a cooldown of 65 characters',
    (s) => (s.spec.scaleDownCooldown = '1'.repeat(64) + 's'),
    causes('spec.scaleDownCooldown: Too long: may not be more than 64 bytes', CEL_SKIPPED),
  ),
  setCase(
    'a cooldown with a shell command',
    (s) => (s.spec.scaleDownCooldown = '5m; rm -rf /'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "5m; rm -rf /": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'a cooldown with a newline',
    (s) => (s.spec.scaleDownCooldown = '5m\n1h'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "5m\\n1h": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'a cooldown in days',
    (s) => (s.spec.scaleDownCooldown = '1d'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "1d": scaleDownCooldown must be a duration such as 30s, 5m or 1h30m',
    ),
  ),
  setCase(
    'a cooldown beyond Go durations',
    (s) => (s.spec.scaleDownCooldown = '9999999999h'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "9999999999h": scaleDownCooldown is out of range: write at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
    ),
  ),
  setCase(
    'a cooldown of 100000 hours',
    (s) => (s.spec.scaleDownCooldown = '100000h'),
    causes(
      'spec.scaleDownCooldown: Invalid value: "100000h": scaleDownCooldown is out of range: write at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
    ),
  ),
  setCase(
    'a cooldown of 10 billion seconds in parts',
    (s) => (s.spec.scaleDownCooldown = '1000000000s'.repeat(5)),
    causes(
      'spec.scaleDownCooldown: Invalid value: "1000000000s1000000000s1000000000s1000000000s1000000000s": scaleDownCooldown is out of range: write at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
    ),
  ),
  // --- revisions ---
  setCase(
    'a pinned revision with capitals and a space',
    (s) => (s.spec.pinnedRevision = 'Pool 1'),
    causes(`spec.pinnedRevision: Invalid value: "Pool 1": ${PINNED_REVISION}`),
  ),
  setCase(
    'a pinned revision with a shell command',
    (s) => (s.spec.pinnedRevision = 'pool-1;rm -rf /'),
    causes(`spec.pinnedRevision: Invalid value: "pool-1;rm -rf /": ${PINNED_REVISION}`),
  ),
  setCase(
    'an empty pinned revision',
    (s) => (s.spec.pinnedRevision = ''),
    causes(`spec.pinnedRevision: Invalid value: "": ${PINNED_REVISION}`),
  ),
  setCase(
    'a pinned revision of 254 characters',
    (s) => (s.spec.pinnedRevision = 'a'.repeat(254)),
    causes('spec.pinnedRevision: Too long: may not be more than 253 bytes', CEL_SKIPPED),
  ),
  setCase(
    'a pinned revision as a number',
    (s) => (s.spec.pinnedRevision = 3),
    causes(
      'spec.pinnedRevision: Invalid value: "integer": spec.pinnedRevision in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a negative revision history limit',
    (s) => (s.spec.revisionHistoryLimit = -1),
    causes(
      'spec.revisionHistoryLimit: Invalid value: -1: spec.revisionHistoryLimit in body should be greater than or equal to 0',
    ),
  ),
  setCase(
    'a revision history limit as a string',
    (s) => (s.spec.revisionHistoryLimit = '10'),
    causes(
      'spec.revisionHistoryLimit: Invalid value: "string": spec.revisionHistoryLimit in body must be of type integer: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- forecast warm buffers (issue 17) ---
  setCase(
    'an unknown forecast mode',
    (s) => (s.spec.forecast = { mode: 'Guess' }),
    causes(
      'spec.forecast.mode: Unsupported value: "Guess": supported values: "Off", "ForecastOnly", "Apply"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a negative forecast maxExtra',
    (s) => (s.spec.forecast = { mode: 'Apply', maxExtra: -1 }),
    causes(
      'spec.forecast.maxExtra: Invalid value: -1: spec.forecast.maxExtra in body should be greater than or equal to 0',
    ),
  ),
  setCase(
    'a forecast maxExtra as a string',
    (s) => (s.spec.forecast = { mode: 'Apply', maxExtra: '2' }),
    causes(
      'spec.forecast.maxExtra: Invalid value: "string": spec.forecast.maxExtra in body must be of type integer: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- enums and references ---
  setCase(
    'an unknown recycle strategy',
    (s) => (s.spec.recycleStrategy = 'Delete'),
    causes(
      'spec.recycleStrategy: Unsupported value: "Delete": supported values: "ExitAndReplace", "InPlaceReuse"',
      CEL_SKIPPED,
    ),
  ),
  // --- scheduled warm buffers (issue 17) ---
  setCase(
    'a schedule cron with a seconds field',
    (s) => (s.spec.schedules = [schedule({ cron: '0 0 8 * * 1-5' })]),
    causes(`spec.schedules[0].cron: Invalid value: "0 0 8 * * 1-5": ${SCHEDULE_CRON}`),
  ),
  setCase(
    'a schedule cron with a shell command',
    (s) => (s.spec.schedules = [schedule({ cron: '$(reboot)' })]),
    causes(`spec.schedules[0].cron: Invalid value: "$(reboot)": ${SCHEDULE_CRON}`),
  ),
  setCase(
    'a schedule time zone as a path',
    (s) => (s.spec.schedules = [schedule({ timeZone: '../../etc/localtime' })]),
    causes(
      'spec.schedules[0].timeZone: Invalid value: "../../etc/localtime": schedules[].timeZone must be an IANA time zone name such as UTC, Europe/Berlin or America/New_York',
    ),
  ),
  setCase(
    'a schedule window of zero',
    (s) => (s.spec.schedules = [schedule({ duration: '0s' })]),
    causes('spec.schedules[0].duration: Invalid value: "0s": schedules[].duration must be longer than 0'),
  ),
  setCase(
    'a schedule lead time with a sign',
    (s) => (s.spec.schedules = [schedule({ leadTime: '-5m' })]),
    causes(
      'spec.schedules[0].leadTime: Invalid value: "-5m": schedules[].leadTime must be a duration such as 2m, 10m or 1h, with at most 5 digits before h, 7 before m, 9 before s, 12 before ms, 15 before us and 18 before ns',
    ),
  ),
  setCase(
    'a schedule without a duration',
    (s) => (s.spec.schedules = [schedule({ duration: undefined })]),
    causes('spec.schedules[0].duration: Required value', CEL_SKIPPED),
  ),
  setCase(
    'two schedules of one name',
    (s) => (s.spec.schedules = [schedule(), schedule({ cron: '@daily' })]),
    causes(
      'spec.schedules[1]: Duplicate value: {"name":"work"}',
      'spec.schedules: Invalid value: schedules[].name must be unique among the schedules: rename one of them',
    ),
  ),
  setCase(
    'a schedule buffer above maxReplicas',
    (s) => (s.spec.schedules = [schedule({ minAvailableReplicas: 40 })]),
    causes(
      'spec.schedules: Invalid value: schedules[].minAvailableReplicas must be less than or equal to maxReplicas (when maxReplicas is not 0)',
    ),
  ),
  setCase(
    'seventeen schedules',
    (s) => (s.spec.schedules = many(17, (i) => schedule({ name: `s${i}` }))),
    causes('spec.schedules: Too many: 17: must have at most 16 items', CEL_SKIPPED),
  ),
  // --- pool operations (issue 16): scale-in order, update strategy, requested recycle ---
  setCase(
    'an unknown scale-in base policy',
    (s) => (s.spec.scaleInStrategy = { basePolicy: 'Biggest' }),
    causes(
      'spec.scaleInStrategy.basePolicy: Unsupported value: "Biggest": supported values: "Oldest", "Newest", "Random"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a scale-in selector requirement In without values',
    (s) =>
      (s.spec.scaleInStrategy = { selectors: [{ matchExpressions: [{ key: 'tier', operator: 'In' }] }] }),
    causes(
      'spec.scaleInStrategy.selectors[0].matchExpressions[0]: Invalid value: matchExpressions values must be non-empty for In and NotIn and empty for Exists and DoesNotExist',
    ),
  ),
  setCase(
    'nine scale-in selectors',
    (s) => (s.spec.scaleInStrategy = { selectors: many(9, () => ({})) }),
    causes('spec.scaleInStrategy.selectors: Too many: 9: must have at most 8 items', CEL_SKIPPED),
  ),
  setCase(
    'an unknown update strategy type',
    (s) => (s.spec.updateStrategy = { type: 'Sometimes' }),
    causes(
      'spec.updateStrategy.type: Unsupported value: "Sometimes": supported values: "Proactive", "Opportunistic", "Unmanaged"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a maxSurge of 250%',
    (s) => (s.spec.updateStrategy = { maxSurge: '250%' }),
    causes(
      'spec.updateStrategy.maxSurge: Invalid value: updateStrategy.maxSurge must be a count of at least 0 or a percentage from 0% to 100%, such as 2 or 25%',
    ),
  ),
  setCase(
    'a negative maxUnavailable',
    (s) => (s.spec.updateStrategy = { maxUnavailable: -1 }),
    causes(
      'spec.updateStrategy.maxUnavailable: Invalid value: updateStrategy.maxUnavailable must be a count of at least 0 or a percentage from 0% to 100%, such as 1 or 25%',
    ),
  ),
  setCase(
    'a fractional maxSurge',
    (s) => (s.spec.updateStrategy = { maxSurge: 1.5 }),
    causes(
      'spec.updateStrategy.maxSurge: Invalid value: "number": spec.updateStrategy.maxSurge in body must be of type integer,string: "number"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'maxSurge and maxUnavailable both zero',
    (s) => (s.spec.updateStrategy = { maxSurge: 0, maxUnavailable: '0%' }),
    causes(
      'spec.updateStrategy: Invalid value: updateStrategy.maxSurge and maxUnavailable must not both be 0: no outdated instance could ever be replaced',
    ),
  ),
  setCase(
    'maxSurge with the Unmanaged strategy',
    (s) => (s.spec.updateStrategy = { type: 'Unmanaged', maxSurge: 1 }),
    causes(
      'spec.updateStrategy: Invalid value: updateStrategy.maxSurge and maxUnavailable apply to type Proactive only: remove them, or set type: Proactive',
    ),
  ),
  setCase(
    'a recycle request in words',
    (s) => (s.spec.recycleRequestedAt = 'yesterday'),
    causes(
      'spec.recycleRequestedAt: Invalid value: "yesterday": spec.recycleRequestedAt in body must be of type date-time: "yesterday"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a recycle request without a time zone',
    (s) => (s.spec.recycleRequestedAt = '2026-11-26T18:00:00'),
    causes(
      'spec.recycleRequestedAt: Invalid value: "2026-11-26T18:00:00": spec.recycleRequestedAt in body must be of type date-time: "2026-11-26T18:00:00"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'an empty class name',
    (s) => (s.spec.virtualTargetClassName = ''),
    causes(
      'spec.virtualTargetClassName: Invalid value: "": spec.virtualTargetClassName in body should be at least 1 chars long',
    ),
  ),
  setCase(
    'no class name',
    (s) => delete s.spec.virtualTargetClassName,
    causes('spec.virtualTargetClassName: Required value', CEL_SKIPPED),
  ),
  setCase('no selector', (s) => delete s.spec.selector, causes('spec.selector: Required value', CEL_SKIPPED)),
  setCase('no template', (s) => delete s.spec.template, causes('spec.template: Required value', CEL_SKIPPED)),
  // --- selectors ---
  setCase(
    'an unknown selector operator',
    (s) => expressions(s, { key: 'board', operator: 'Equals', values: ['qemu-x86'] }),
    causes(
      'spec.selector.matchExpressions[0]: Invalid value: matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist',
    ),
  ),
  setCase(
    'a lower-case selector operator',
    (s) => expressions(s, { key: 'board', operator: 'in', values: ['qemu-x86'] }),
    causes(
      'spec.selector.matchExpressions[0]: Invalid value: matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist',
    ),
  ),
  setCase(
    'In without values',
    (s) => expressions(s, { key: 'board', operator: 'In' }),
    causes(
      'spec.selector: Invalid value: selector must match the template labels, or the set would create instances forever',
      'spec.selector.matchExpressions[0]: Invalid value: matchExpressions values must be non-empty for In and NotIn and empty for Exists and DoesNotExist',
    ),
  ),
  setCase(
    'Exists with values',
    (s) => expressions(s, { key: 'board', operator: 'Exists', values: ['x'] }),
    causes(
      'spec.selector.matchExpressions[0]: Invalid value: matchExpressions values must be non-empty for In and NotIn and empty for Exists and DoesNotExist',
    ),
  ),
  setCase(
    'a requirement without a key',
    (s) => expressions(s, { operator: 'Exists' }),
    causes('spec.selector.matchExpressions[0].key: Required value', CEL_SKIPPED),
  ),
  setCase(
    '33 requirements',
    (s) => expressions(s, ...many(33, () => ({ key: 'board', operator: 'Exists' }))),
    causes('spec.selector.matchExpressions: Too many: 33: must have at most 32 items', CEL_SKIPPED),
  ),
  setCase(
    'a requirement with 65 values',
    (s) => expressions(s, { key: 'board', operator: 'In', values: many(65, (i) => `v${i}`) }),
    causes('spec.selector.matchExpressions[0].values: Too many: 65: must have at most 64 items', CEL_SKIPPED),
  ),
  setCase(
    '65 matchLabels',
    (s) => Object.assign(s.spec.selector.matchLabels, Object.fromEntries(many(65, (i) => [`l${i}`, 'v']))),
    causes('spec.selector.matchLabels: Too many: 66: must have at most 64 items', CEL_SKIPPED),
  ),
  setCase(
    'a selector that misses the template',
    (s) => (s.spec.selector.matchLabels.board = 'rpi4'),
    causes(
      'spec.selector: Invalid value: selector must match the template labels, or the set would create instances forever',
    ),
  ),
  setCase(
    'a selector value with an injected label',
    (s) => (s.spec.selector.matchLabels.board = 'qemu-x86,evil=true'),
    causes(
      'spec.selector: Invalid value: selector must match the template labels, or the set would create instances forever',
    ),
  ),
  setCase(
    'matchLabels as a string',
    (s) => (s.spec.selector.matchLabels = 'board=qemu-x86'),
    causes(
      'spec.selector.matchLabels: Invalid value: "string": spec.selector.matchLabels in body must be of type object: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- template labels, annotations, drivers ---
  setCase(
    'a template label value of 64 characters',
    (s) => (s.spec.template.metadata.labels.board = 'x'.repeat(64)),
    causes('spec.template.metadata.labels.board: Too long: may not be more than 63 bytes', CEL_SKIPPED),
  ),
  setCase(
    'a template label value with spaces',
    (s) => (s.spec.template.metadata.labels.team = 'qa team'),
    causes(
      'spec.template.metadata.labels[team]: Invalid value: "qa team": template label values must be empty or up to 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit: every instance carries them as labels',
    ),
  ),
  setCase(
    'a template label value with a shell command',
    (s) => (s.spec.template.metadata.labels.team = '$(reboot)'),
    causes(
      'spec.template.metadata.labels[team]: Invalid value: "$(reboot)": template label values must be empty or up to 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit: every instance carries them as labels',
    ),
  ),
  setCase(
    'a unicode template label value',
    (s) => (s.spec.template.metadata.labels.team = 'ünïcødé'),
    causes(
      'spec.template.metadata.labels[team]: Invalid value: "ünïcødé": template label values must be empty or up to 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit: every instance carries them as labels',
    ),
  ),
  setCase(
    'a template label value ending in a dash',
    (s) => (s.spec.template.metadata.labels.team = 'qa-'),
    causes(
      'spec.template.metadata.labels[team]: Invalid value: "qa-": template label values must be empty or up to 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit: every instance carries them as labels',
    ),
  ),
  setCase(
    'template annotations over 255 KiB',
    (s) => (s.spec.template.metadata.annotations = { notes: 'x'.repeat(255 * 1024) }),
    causes(
      'spec.template.metadata.annotations: Invalid value: template annotations must total at most 255 KiB (261120), keys and values together: every instance carries them, and Kubernetes allows 256 KiB of annotations per object',
    ),
  ),
  setCase(
    '257 template annotations',
    (s) => (s.spec.template.metadata.annotations = Object.fromEntries(many(257, (i) => [`a${i}`, 'v']))),
    causes('spec.template.metadata.annotations: Too many: 257: must have at most 256 items', CEL_SKIPPED),
  ),
  setCase(
    '65 template labels',
    (s) =>
      Object.assign(s.spec.template.metadata.labels, Object.fromEntries(many(65, (i) => [`l${i}`, 'v']))),
    causes('spec.template.metadata.labels: Too many: 66: must have at most 64 items', CEL_SKIPPED),
  ),
  setCase(
    'a template annotation that is a number',
    (s) => (s.spec.template.metadata.annotations = { replicas: 3 }),
    causes(
      'spec.template.metadata.annotations.replicas: Invalid value: "integer": spec.template.metadata.annotations.replicas in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'drivers as a map',
    (s) => (s.spec.template.spec.drivers = { power: { type: 'x.Y' } }),
    causes(
      'spec.template.spec.drivers: Invalid value: "object": spec.template.spec.drivers in body must be of type array: "object"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    '65 drivers',
    (s) => drivers(s, ...many(65, (i) => ({ name: `d${i}`, type: 'x.Y' }))),
    causes('spec.template.spec.drivers: Too many: 65: must have at most 64 items', CEL_SKIPPED),
  ),
  setCase(
    'a driver with type and ref',
    (s) => drivers(s, { name: 'power', type: 'x.Y', ref: 'a.b' }),
    causes('spec.template.spec.drivers[0]: Invalid value: type and ref are mutually exclusive'),
  ),
  setCase(
    'a driver with neither type nor ref',
    (s) => drivers(s, { name: 'power' }),
    causes('spec.template.spec.drivers[0]: Invalid value: either type or ref must be set'),
  ),
  setCase(
    'a ref with config',
    (s) =>
      drivers(
        s,
        { type: 'jumpstarter_driver_composite.driver.Composite' },
        { ref: 'composite.serial', config: { baud: 9600 } },
      ),
    causes('spec.template.spec.drivers[1]: Invalid value: ref entries must not have config'),
  ),
  setCase(
    'an empty driver name',
    (s) => drivers(s, { name: '', type: 'x.Y' }),
    causes(
      'spec.template.spec.drivers[0]: Invalid value: name must not be empty (omit it to derive the name from the driver package)',
    ),
  ),
  setCase(
    'two drivers deriving the same name',
    (s) =>
      drivers(
        s,
        { type: 'jumpstarter_driver_power.driver.A' },
        { type: 'jumpstarter_driver_power.driver.B' },
      ),
    causes(
      'spec.template.spec.drivers: Invalid value: driver names must be unique (a missing name is derived from the driver package)',
    ),
  ),
  setCase(
    'a driver config that is a string',
    (s) => drivers(s, { name: 'x', type: 'x.Y', config: 'rm -rf /' }),
    causes(
      'spec.template.spec.drivers[0].config: Invalid value: "string": spec.template.spec.drivers[0].config in body must be of type object: "string"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'a driver type of 129 characters',
    (s) => drivers(s, { type: `${'x'.repeat(127)}.Y` }),
    causes('spec.template.spec.drivers[0].type: Too long: may not be more than 128 bytes', CEL_SKIPPED),
  ),
  setCase(
    'a ref with an empty segment',
    (s) => drivers(s, { ref: 'a..b' }),
    causes(
      'spec.template.spec.drivers[0].ref: Invalid value: "a..b": spec.template.spec.drivers[0].ref in body should match \'^[^.]+([.][^.]+)*$\'',
    ),
  ),
  setCase(
    'a driver that is a string',
    (s) => drivers(s, 'jumpstarter_driver_power.driver.QemuPower'),
    causes(
      'spec.template.spec.drivers[0]: Invalid value: "string": spec.template.spec.drivers[0] in body must be of type object: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- parameters and images ---
  setCase(
    'parameters as a list',
    (s) => (s.spec.parameters = [{ arch: 'x86_64' }]),
    causes(
      'spec.parameters: Invalid value: "array": spec.parameters in body must be of type object: "array"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'parameters as a YAML string',
    (s) => (s.spec.parameters = 'arch: x86_64'),
    causes(
      'spec.parameters: Invalid value: "string": spec.parameters in body must be of type object: "string"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'an image that is a number',
    (s) => (s.spec.images = { exporter: { image: 42 } }),
    causes(
      'spec.images.exporter.image: Invalid value: "integer": spec.images.exporter.image in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  setCase(
    'an unknown pull policy',
    (s) => (s.spec.images = { runtime: { imagePullPolicy: 'Sometimes' } }),
    causes(
      'spec.images.runtime.imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "IfNotPresent"',
      CEL_SKIPPED,
    ),
  ),
  // --- metadata: unicode and injection ---
  setCase(
    'a unicode name',
    (s) => (s.metadata.name = 'pööl'),
    causes(
      "metadata.name: Invalid value: \"pööl\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ),
  ),
  setCase(
    'a name of 64 characters',
    (s) => (s.metadata.name = `p${'o'.repeat(62)}l`),
    causes(
      '<nil>: Invalid value: metadata.name must be at most 63 characters: it is the value of the exporterset.jumpstarter.dev/name label on every instance',
    ),
  ),
  setCase(
    'a name of 253 characters',
    (s) => (s.metadata.name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`),
    causes(
      '<nil>: Invalid value: metadata.name must be at most 63 characters: it is the value of the exporterset.jumpstarter.dev/name label on every instance',
    ),
  ),
  setCase(
    'a label value with a shell command',
    (s) => (s.metadata.labels = { team: 'x; rm -rf /' }),
    causes(
      "metadata.labels: Invalid value: \"x; rm -rf /\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ),
  ),
  setCase(
    'a label key with unicode',
    (s) => (s.metadata.labels = { 'ünï/team': 'a' }),
    causes(
      "metadata.labels: Invalid value: \"ünï/team\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ),
  ),
  setCase(
    'an annotation key with spaces',
    (s) => (s.metadata.annotations = { 'bad key': 'v' }),
    causes(
      "metadata.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ),
  ),
  setCase(
    'a label value of 64 characters',
    (s) => (s.metadata.labels = { team: 'x'.repeat(64) }),
    causes(
      'metadata.labels: Invalid value: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx": must be no more than 63 bytes',
    ),
  ),
  // --- VirtualTargetClass ---
  classCase('no provisioner', (c) => delete c.spec.provisioner, causes('spec.provisioner: Required value')),
  classCase(
    'an empty provisioner',
    (c) => (c.spec.provisioner = ''),
    causes('spec.provisioner: Invalid value: "": spec.provisioner in body should be at least 1 chars long'),
  ),
  classCase(
    'an unknown binding mode',
    (c) => (c.spec.bindingMode = 'Later'),
    causes(
      'spec.bindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ),
  ),
  classCase(
    'an unknown reclaim policy',
    (c) => (c.spec.reclaimPolicy = 'Recycle'),
    causes('spec.reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'),
  ),
  classCase(
    'parameters as a list',
    (c) => (c.spec.parameters = ['x86_64']),
    causes(
      'spec.parameters: Invalid value: "array": spec.parameters in body must be of type object: "array"',
    ),
  ),
  classCase(
    'a credentials Secret name that is a number',
    (c) => (c.spec.credentialsSecretRef = { name: 7 }),
    causes(
      'spec.credentialsSecretRef.name: Invalid value: "integer": spec.credentialsSecretRef.name in body must be of type string: "integer"',
    ),
  ),
  classCase(
    'a CA bundle reference without a name',
    (c) => (c.spec.caBundleConfigMapRef = { key: 'ca.crt' }),
    causes('spec.caBundleConfigMapRef.name: Required value'),
  ),
  classCase(
    'tolerations as a map',
    (c) => (c.spec.scheduling = { tolerations: { kvm: 'Exists' } }),
    causes(
      'spec.scheduling.tolerations: Invalid value: "object": spec.scheduling.tolerations in body must be of type array: "object"',
    ),
  ),
  classCase(
    'a resource limit in words',
    (c) => (c.spec.scheduling = { resources: { limits: { cpu: 'lots' } } }),
    causes(
      'spec.scheduling.resources.limits.cpu: Invalid value: "lots": spec.scheduling.resources.limits.cpu in body should match \'^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$\'',
    ),
  ),
  classCase(
    'a node selector value that is a number',
    (c) => (c.spec.scheduling = { nodeSelector: { kvm: 1 } }),
    causes(
      'spec.scheduling.nodeSelector.kvm: Invalid value: "integer": spec.scheduling.nodeSelector.kvm in body must be of type string: "integer"',
    ),
  ),
  // --- ExporterSet status: the lease-wait objectives (the controller writes them; anyone with /status could) ---
  setStatusCase(
    'a warm-hit ratio above 1',
    { leaseWait: { windowStart: '2026-01-01T00:00:00Z', leases: 1, warmHitRatio: 1.5 } },
    causes(
      'status.leaseWait.warmHitRatio: Invalid value: 1.5: leaseWait.warmHitRatio in body should be less than or equal to 1',
    ),
  ),
  setStatusCase(
    'a lease-wait p95 below zero',
    { leaseWait: { windowStart: '2026-01-01T00:00:00Z', leases: 1, p95Seconds: -3 } },
    causes(
      'status.leaseWait.p95Seconds: Invalid value: -3: leaseWait.p95Seconds in body should be greater than or equal to 0',
    ),
  ),
  setStatusCase(
    'a lease-wait window without its start',
    { leaseWait: { leases: 2 } },
    causes('status.leaseWait.windowStart: Required value', CEL_SKIPPED),
  ),
  setStatusCase(
    'a startup p95 as a string',
    { startupP95Seconds: '40s' },
    causes(
      'status.startupP95Seconds: Invalid value: "string": startupP95Seconds in body must be of type integer: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- Exporter (Jumpstarter's CRD) ---
  exporterCase(
    'enabled as a string',
    create(
      'exporters',
      exporter((e) => (e.spec.enabled = 'yes')),
    ),
    causes('spec.enabled: Invalid value: "string": spec.enabled in body must be of type boolean: "string"'),
  ),
  exporterCase(
    'conditions that are not a list',
    writeStatus('exporters', exporter(), { conditions: 'Online' }),
    causes('status.conditions: Invalid value: "string": conditions in body must be of type array: "string"'),
  ),
  exporterCase(
    'a condition item that is null',
    writeStatus('exporters', exporter(), { conditions: [null] }),
    causes(
      'status.conditions[0]: Invalid value: "null": conditions[0] in body must be of type object: "null"',
    ),
  ),
  exporterCase(
    'a condition without reason',
    writeStatus('exporters', exporter(), {
      conditions: [
        { type: 'Online', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', message: '' },
      ],
    }),
    causes('status.conditions[0].reason: Required value'),
  ),
  exporterCase(
    'a condition status Maybe',
    writeStatus('exporters', exporter(), {
      conditions: [
        {
          type: 'Online',
          status: 'Maybe',
          reason: 'X',
          lastTransitionTime: '2026-01-01T00:00:00Z',
          message: '',
        },
      ],
    }),
    causes(
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
    ),
  ),
  exporterCase(
    'an unknown exporter status',
    writeStatus('exporters', exporter(), { exporterStatus: 'Exploding' }),
    causes(
      'status.exporterStatus: Unsupported value: "Exploding": supported values: "Unspecified", "Offline", "Available", "BeforeLeaseHook", "LeaseReady", "AfterLeaseHook", "BeforeLeaseHookFailed", "AfterLeaseHookFailed"',
    ),
  ),
  exporterCase(
    'a credential reference that is a string',
    writeStatus('exporters', exporter(), { credential: 'pool-0-exporter' }),
    causes('status.credential: Invalid value: "string": credential in body must be of type object: "string"'),
  ),
  // --- Lease (Jumpstarter's CRD) ---
  leaseCase(
    'neither selector nor exporterRef',
    create(
      'leases',
      lease((l) => (l.spec.selector = {})),
    ),
    causes('spec: Invalid value: one of selector or exporterRef.name is required'),
  ),
  leaseCase(
    'no clientRef',
    create(
      'leases',
      lease((l) => delete l.spec.clientRef),
    ),
    causes('spec.clientRef: Required value', CEL_SKIPPED),
  ),
  leaseCase(
    'a context key over 32 characters',
    create(
      'leases',
      lease((l) => (l.spec.context = { ['k'.repeat(33)]: 'v' })),
    ),
    causes('spec: Invalid value: context keys max 32 chars, values max 64 chars'),
  ),
  leaseCase(
    'tags changed after creation',
    patchAfterCreate(
      'leases',
      lease((l) => (l.spec.tags = { team: 'a' })),
      { spec: { tags: { team: 'b' } } },
    ),
    causes('spec: Invalid value: tags are immutable after creation'),
  ),
  leaseCase(
    'a status without ended',
    writeStatus('leases', lease(), { exporterRef: { name: 'pool-0' } }),
    causes('status.ended: Required value', CEL_SKIPPED),
  ),
  leaseCase(
    'an exporterRef name that is a number',
    writeStatus('leases', lease(), { ended: false, exporterRef: { name: 42 } }),
    causes(
      'status.exporterRef.name: Invalid value: "integer": exporterRef.name in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  leaseCase(
    'ended as a string',
    writeStatus('leases', lease(), { ended: 'no' }),
    causes(
      'status.ended: Invalid value: "string": ended in body must be of type boolean: "string"',
      CEL_SKIPPED,
    ),
  ),
  // --- ExporterOperation (issue 16 item 5) ---
  operationCase(
    'an operation that is neither ours nor <domain>/<Name>',
    (o) => (o.spec.operation = 'Reboot'),
    causes(
      'spec: Invalid value: operation must be Recycle, Disable, Enable or Drain, or a provisioner-specific operation written provisioner-domain/Name, such as qemu.jumpstarter.dev/Reflash',
    ),
  ),
  operationCase(
    'a provisioner-specific operation without a domain',
    (o) => (o.spec.operation = 'local/Reflash'),
    causes(
      'spec: Invalid value: operation must be Recycle, Disable, Enable or Drain, or a provisioner-specific operation written provisioner-domain/Name, such as qemu.jumpstarter.dev/Reflash',
    ),
  ),
  operationCase(
    'both an exporter and a set',
    (o) => (o.spec.exporterSetName = 'pool'),
    causes('spec: Invalid value: exactly one of exporterName or exporterSetName must be set'),
  ),
  operationCase(
    'no target at all',
    (o) => delete o.spec.exporterName,
    causes('spec: Invalid value: exactly one of exporterName or exporterSetName must be set'),
  ),
  operationCase(
    'a selector on an operation by name',
    (o) => (o.spec.selector = { matchLabels: { board: 'qemu-x86' } }),
    causes('spec: Invalid value: selector may only be set with exporterSetName'),
  ),
  operationCase(
    'a selector operator that does not exist',
    (o) => {
      delete o.spec.exporterName;
      o.spec.exporterSetName = 'pool';
      o.spec.selector = { matchExpressions: [{ key: 'board', operator: 'Like', values: ['x'] }] };
    },
    causes(
      'spec.selector.matchExpressions[0]: Invalid value: matchExpressions operator must be one of In, NotIn, Exists, DoesNotExist',
    ),
  ),
  operationCase(
    'a zero deadline',
    (o) => (o.spec.activeDeadlineSeconds = 0),
    causes(
      'spec.activeDeadlineSeconds: Invalid value: 0: spec.activeDeadlineSeconds in body should be greater than or equal to 1',
    ),
  ),
  operationCase(
    'a negative TTL',
    (o) => (o.spec.ttlSecondsAfterFinished = -5),
    causes(
      'spec.ttlSecondsAfterFinished: Invalid value: -5: spec.ttlSecondsAfterFinished in body should be greater than or equal to 0',
    ),
  ),
  operationCase(
    'a parameter that is not a string',
    (o) => (o.spec.parameters = { image: 3 }),
    causes(
      'spec.parameters.image: Invalid value: "integer": spec.parameters.image in body must be of type string: "integer"',
      CEL_SKIPPED,
    ),
  ),
  operationCase(
    'a parameter value longer than 1024 characters',
    (o) => (o.spec.parameters = { image: 'x'.repeat(1025) }),
    causes('spec.parameters.image: Too long: may not be more than 1024 bytes', CEL_SKIPPED),
  ),
  {
    kind: 'ExporterOperation',
    what: 'a spec changed after creation',
    writes: patchAfterCreate('operations', exporterOperation(), { spec: { operation: 'Drain' } }),
    message: invalid(
      exporterOperation(),
      causes('spec: Invalid value: spec is immutable: create a new ExporterOperation instead'),
    ),
  },
];
