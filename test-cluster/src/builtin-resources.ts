/**
 * The built-in Kubernetes resources the test cluster serves: the kinds the controller, Jumpstarter and
 * the kubelet touch (SPEC §5). They have no admission here; the store still applies the generic rules
 * (names, labels, status isolation, generation). Core v1 events and events.k8s.io/v1 events are two
 * separate collections here (one storage on a real server). Secrets get what a real API server does to
 * them on every write: `stringData` is merged into `data` (base64) and never stored.
 */
import { badRequest } from './api-errors';
import { MAX_SECRET_BYTES } from './limits';
import type { Admission, AdmissionCause, KubeObject, ResourceType } from './types';

const BASE64_CHARACTER = /[A-Za-z0-9+/]/;

/**
 * Where Go's `encoding/json` stops reading `text` as the standard, padded base64 of a `[]byte`
 * (`data` of a Secret), or undefined when it decodes. Go skips CR and LF.
 */
export function base64ErrorOffset(text: string): number | undefined {
  let quantum = 0; // characters read of the current group of four
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' || c === '\n') continue;
    if (c === '=') {
      // Padding only completes a group of which two or three characters were read.
      if (quantum < 2 || quantum + padding >= 4) return i;
      padding++;
      continue;
    }
    if (padding > 0 || !BASE64_CHARACTER.test(c)) return i;
    quantum = (quantum + 1) % 4;
  }
  if (padding > 0) return quantum + padding === 4 ? undefined : text.length;
  return quantum === 0 ? undefined : text.length - quantum;
}

/**
 * A Secret's `data` as the API server decodes it: every value a string of standard base64, or the
 * request is refused with 400 before admission, as kube-apiserver words it.
 */
function checkSecretData(data: unknown): void {
  if (data === undefined || data === null) return;
  const refuse = (why: string) => badRequest(`Secret in version "v1" cannot be handled as a Secret: ${why}`);
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw refuse(
      `json: cannot unmarshal ${Array.isArray(data) ? 'array' : typeof data} into Go struct field Secret.data of type map[string][]uint8`,
    );
  }
  for (const value of Object.values(data as Record<string, unknown>)) {
    if (value === null) continue;
    if (typeof value !== 'string') {
      throw refuse(
        `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field Secret.data of type []uint8`,
      );
    }
    const offset = base64ErrorOffset(value);
    if (offset !== undefined) throw refuse(`illegal base64 data at input byte ${offset}`);
  }
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MAX_LENGTH = 253;
const CONFIG_KEY_RULE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** Why `key` cannot be a Secret or ConfigMap key, as Kubernetes words it; undefined when it can. */
function configKeyProblem(key: string): string | undefined {
  if (key.length > CONFIG_KEY_MAX_LENGTH) return `must be no more than ${CONFIG_KEY_MAX_LENGTH} characters`;
  if (!CONFIG_KEY.test(key)) return CONFIG_KEY_RULE;
  if (key === '.') return "must not be '.'";
  if (key === '..') return "must not be '..'";
  if (key.startsWith('..')) return "must not start with '..'";
  return undefined;
}

/** Secret validation: every key a config key, and at most 1 MiB of (decoded) data in all. */
function secretCauses(data: Readonly<Record<string, unknown>>): AdmissionCause[] {
  const causes: AdmissionCause[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    const problem = configKeyProblem(key);
    if (problem) {
      causes.push({
        field: `data[${key}]`,
        message: `Invalid value: ${JSON.stringify(key)}: ${problem}`,
        reason: 'FieldValueInvalid',
      });
    }
    if (typeof value === 'string') total += Buffer.byteLength(value, 'base64');
  }
  if (total > MAX_SECRET_BYTES) {
    causes.push({
      field: 'data',
      message: `Too long: must have at most ${MAX_SECRET_BYTES} bytes`,
      reason: 'FieldValueTooLong',
    });
  }
  return causes;
}

/**
 * Merges a Secret's write-only `stringData` into `data`, as the API server does on create and update,
 * after refusing `data` that is not base64 (400, as the API server's decoder does); then validates the
 * keys and the total size (422).
 */
export const secretAdmission: Admission = {
  admit(object: KubeObject) {
    const { stringData, ...rest } = object as KubeObject & { stringData?: unknown; data?: unknown };
    checkSecretData(rest.data);
    const data: Record<string, string> = { ...((rest.data as Record<string, string> | undefined) ?? {}) };
    if (stringData === undefined || stringData === null || typeof stringData !== 'object') {
      return { object: rest as KubeObject, causes: secretCauses(data) };
    }
    for (const [key, value] of Object.entries(stringData as Record<string, unknown>)) {
      data[key] = Buffer.from(String(value), 'utf8').toString('base64');
    }
    return { object: { ...rest, data } as KubeObject, causes: secretCauses(data) };
  },
};

/**
 * ControllerRevision validation as the API server does it: `revision` a whole number ≥ 0, and `data`
 * immutable once stored ("field is immutable"): a revision is a snapshot, never edited.
 */
export const controllerRevisionAdmission: Admission = {
  admit(object: KubeObject, old?: KubeObject) {
    const causes: AdmissionCause[] = [];
    const { revision, data } = object as KubeObject & { revision?: unknown; data?: unknown };
    if (typeof revision !== 'number' || !Number.isInteger(revision) || revision < 0) {
      causes.push({
        field: 'revision',
        message: `Invalid value: ${JSON.stringify(revision) ?? 'null'}: must be greater than or equal to 0`,
      });
    }
    if (old !== undefined && JSON.stringify(data) !== JSON.stringify((old as { data?: unknown }).data)) {
      causes.push({ field: 'data', message: 'Invalid value: "object": field is immutable' });
    }
    return { object, causes };
  },
};

type Options = Partial<
  Pick<ResourceType, 'shortNames' | 'categories' | 'statusSubresource' | 'admission' | 'knownFields'>
> & {
  namespaced?: boolean;
};

function builtin(
  group: string,
  version: string,
  kind: string,
  plural: string,
  o: Options = {},
): ResourceType {
  return Object.freeze({
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: o.namespaced ?? true,
    statusSubresource: o.statusSubresource ?? false,
    ...(o.shortNames ? { shortNames: o.shortNames } : {}),
    ...(o.categories ? { categories: o.categories } : {}),
    ...(o.admission ? { admission: o.admission } : {}),
    ...(o.knownFields ? { knownFields: o.knownFields } : {}),
  });
}

const RBAC = 'rbac.authorization.k8s.io';

const SPEC_STATUS = ['spec', 'status'];
const BINDING = ['subjects', 'roleRef'];

/** Every built-in resource type, in discovery order. */
export const BUILTIN_RESOURCES: readonly ResourceType[] = Object.freeze([
  builtin('', 'v1', 'Namespace', 'namespaces', {
    namespaced: false,
    statusSubresource: true,
    shortNames: ['ns'],
    knownFields: SPEC_STATUS,
  }),
  builtin('', 'v1', 'Pod', 'pods', {
    statusSubresource: true,
    shortNames: ['po'],
    categories: ['all'],
    knownFields: SPEC_STATUS,
  }),
  builtin('', 'v1', 'Secret', 'secrets', {
    admission: secretAdmission,
    knownFields: ['data', 'stringData', 'type', 'immutable'],
  }),
  builtin('', 'v1', 'ConfigMap', 'configmaps', {
    shortNames: ['cm'],
    knownFields: ['data', 'binaryData', 'immutable'],
  }),
  builtin('', 'v1', 'Event', 'events', {
    shortNames: ['ev'],
    knownFields: [
      'involvedObject',
      'reason',
      'message',
      'source',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'type',
      'eventTime',
      'series',
      'action',
      'related',
      'reportingComponent',
      'reportingInstance',
    ],
  }),
  builtin('', 'v1', 'ServiceAccount', 'serviceaccounts', {
    shortNames: ['sa'],
    knownFields: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
  }),
  builtin('coordination.k8s.io', 'v1', 'Lease', 'leases', { knownFields: ['spec'] }),
  builtin('apps', 'v1', 'ControllerRevision', 'controllerrevisions', {
    admission: controllerRevisionAdmission,
    knownFields: ['data', 'revision'],
  }),
  builtin('events.k8s.io', 'v1', 'Event', 'events', {
    shortNames: ['ev'],
    knownFields: [
      'eventTime',
      'series',
      'reportingController',
      'reportingInstance',
      'action',
      'reason',
      'regarding',
      'related',
      'note',
      'type',
      'deprecatedSource',
      'deprecatedFirstTimestamp',
      'deprecatedLastTimestamp',
      'deprecatedCount',
    ],
  }),
  builtin(RBAC, 'v1', 'Role', 'roles', { knownFields: ['rules'] }),
  builtin(RBAC, 'v1', 'RoleBinding', 'rolebindings', { knownFields: BINDING }),
  builtin(RBAC, 'v1', 'ClusterRole', 'clusterroles', {
    namespaced: false,
    knownFields: ['rules', 'aggregationRule'],
  }),
  builtin(RBAC, 'v1', 'ClusterRoleBinding', 'clusterrolebindings', {
    namespaced: false,
    knownFields: BINDING,
  }),
]);
