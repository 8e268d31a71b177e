/**
 * ObjectMeta rules the API server applies to every kind on create and update: which fields are the
 * server's, which empty fields count as absent, and the validation of names, labels, annotations,
 * finalizers and ownerReferences (422 causes).
 */
import { errorBody, type FieldError } from './field-errors';
import { isJsonMap } from './json-values';
import type { AdmissionCause, KubeObject, ResourceType } from './types';

// ---- the API server's name, label and annotation rules, with its words ----

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const LABEL_KEY_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${LABEL_KEY_NAME})?`;
const anchored = (re: string) => new RegExp(`^${re}$`);

/** A "regex used for validation" message (content.RegexError). */
function regexError(message: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${re}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}
const maxLenError = (n: number) => `must be no more than ${n} bytes`;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export function dns1123SubdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (bytes(value) > 253) problems.push(maxLenError(253));
  if (!anchored(DNS1123_SUBDOMAIN).test(value)) {
    problems.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  }
  return problems;
}

export function dns1123LabelProblems(value: string): string[] {
  const problems: string[] = [];
  if (bytes(value) > 63) problems.push(maxLenError(63));
  if (!anchored(DNS1123_LABEL).test(value)) {
    if (anchored(DNS1123_SUBDOMAIN).test(value)) problems.push('must not contain dots');
    else {
      problems.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL,
          'my-name',
          '123-abc',
        ),
      );
    }
  }
  return problems;
}

/** A label key, an annotation key or a finalizer: an optional DNS-subdomain prefix, `/`, a name. */
export function qualifiedNameProblems(value: string): string[] {
  const nameError = regexError(
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
    LABEL_KEY_NAME,
    'MyName',
    'my.name',
    '123-abc',
  );
  const parts = value.split('/');
  const problems: string[] = [];
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) problems.push('prefix part must be non-empty');
    else problems.push(...dns1123SubdomainProblems(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${nameError} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) problems.push('name part must be non-empty');
  else if (bytes(name) > 63) problems.push(`name part ${maxLenError(63)}`);
  if (!anchored(LABEL_KEY_NAME).test(name)) problems.push(`name part ${nameError}`);
  return problems;
}

export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (bytes(value) > 63) problems.push(maxLenError(63));
  if (!anchored(LABEL_VALUE).test(value)) {
    problems.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return problems;
}

/** The most an object's annotations may hold, keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** ObjectMeta fields only the server sets; an update cannot change them. */
export const SERVER_FIELDS = [
  'uid',
  'name',
  'namespace',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'resourceVersion',
] as const;
/** ObjectMeta fields serialized with omitempty: an empty list or map is the same as none. */
export const OMIT_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

/** Kubernetes' name rule per kind: DNS labels for namespaces, path segments for RBAC, DNS subdomains else. */
function nameProblems(rt: ResourceType, name: string): string[] {
  if (rt.group === '' && rt.plural === 'namespaces') return dns1123LabelProblems(name);
  if (rt.group === 'rbac.authorization.k8s.io') {
    if (name === '.' || name === '..') return [`may not be '${name}'`];
    return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
  }
  return dns1123SubdomainProblems(name);
}

const cause = (e: FieldError): AdmissionCause => ({ field: e.field, message: errorBody(e), reason: e.type });
const invalid = (field: string, value: unknown, detail: string) =>
  cause({ field, type: 'FieldValueInvalid', value, detail });

/**
 * The 422 causes of `object`'s metadata, in the API server's order and words (ValidateObjectMeta):
 * name (`withName`: on create; names never change), labels, annotations, ownerReferences, finalizers.
 */
export function metadataCauses(rt: ResourceType, object: KubeObject, withName: boolean): AdmissionCause[] {
  const meta = object.metadata;
  const causes: AdmissionCause[] = [];
  if (withName) {
    for (const m of nameProblems(rt, meta.name ?? '')) causes.push(invalid('metadata.name', meta.name, m));
  }
  for (const [key, value] of Object.entries(isJsonMap(meta.labels) ? meta.labels : {})) {
    for (const m of qualifiedNameProblems(key)) causes.push(invalid('metadata.labels', key, m));
    for (const m of labelValueProblems(String(value))) causes.push(invalid('metadata.labels', value, m));
  }
  const annotations = isJsonMap(meta.annotations) ? meta.annotations : {};
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const m of qualifiedNameProblems(key.toLowerCase()))
      causes.push(invalid('metadata.annotations', key, m));
    annotationBytes += bytes(key) + bytes(String(value));
  }
  if (annotationBytes > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
    causes.push(
      cause({
        field: 'metadata.annotations',
        type: 'FieldValueTooLong',
        value: '',
        detail: `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES} bytes`,
      }),
    );
  }
  const owners = meta.ownerReferences;
  if (Array.isArray(owners)) {
    let firstController = '';
    owners.forEach((o, i) => {
      const ref: Record<string, unknown> = isJsonMap(o) ? o : {};
      for (const field of ['apiVersion', 'kind', 'name', 'uid'] as const) {
        if (typeof ref[field] !== 'string' || ref[field] === '') {
          causes.push(
            cause({
              field: `metadata.ownerReferences[${i}].${field}`,
              type: 'FieldValueRequired',
              value: '',
              detail: 'must not be empty',
            }),
          );
        }
      }
      if (ref.controller === true) {
        const current = `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`;
        if (firstController) {
          causes.push(
            invalid(
              'metadata.ownerReferences',
              owners,
              `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
            ),
          );
        } else firstController = current;
      }
    });
  }
  if (Array.isArray(meta.finalizers)) {
    for (const f of meta.finalizers) {
      for (const m of qualifiedNameProblems(String(f))) causes.push(invalid('metadata.finalizers', f, m));
    }
  }
  return causes;
}
