/**
 * Kubernetes name and label syntax, checked before the API server does so synth-time errors and
 * controller conditions say the same thing. Each `validate*` returns the broken rules as sentences
 * (empty when valid), like apimachinery's `validation.Is*` helpers.
 */
import { describeValue, type ValidationIssue } from './issue';
import { isPlainObject } from './plain-object';
import { keyPath } from './path';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1123 subdomain's syntax, as a regular expression source (for CEL `matches()` too). */
export const DNS1123_SUBDOMAIN_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const DNS1123_SUBDOMAIN = new RegExp(DNS1123_SUBDOMAIN_PATTERN);
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** A label value's syntax, as a regular expression source without backslashes (for CEL `matches()` too). */
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
const LABEL_VALUE = new RegExp(LABEL_VALUE_PATTERN);

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const LABEL_VALUE_MAX_LENGTH = 63;
const QUALIFIED_NAME_MAX_LENGTH = 63;
/** Kubernetes' limit on all annotations of one object: keys and values together, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** The size Kubernetes counts for an annotations map: the UTF-8 bytes of every key and value. */
export function annotationBytes(annotations: Readonly<Record<string, unknown>>): number {
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    if (typeof value !== 'string') continue;
    total += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return total;
}

function notString(value: unknown): string[] | undefined {
  return typeof value === 'string' ? undefined : ['must be a string'];
}

/** Object names (most kinds, Secrets, ConfigMaps, our sets and classes): `rpi4-virtual`, `a.b`. */
export function validateDns1123Subdomain(name: unknown): string[] {
  const wrongType = notString(name);
  if (wrongType) return wrongType;
  const text = name as string;
  const messages: string[] = [];
  if (text.length > DNS1123_SUBDOMAIN_MAX_LENGTH) {
    messages.push(`must be at most ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters long`);
  }
  if (!DNS1123_SUBDOMAIN.test(text)) {
    messages.push(
      'must be a lowercase DNS-1123 subdomain: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit (e.g. "rpi4-virtual" or "lab.example.com")',
    );
  }
  return messages;
}

/** Namespaces and other names that must be a single DNS label: `jumpstarter`, `lab-1`. */
export function validateDns1123Label(name: unknown): string[] {
  const wrongType = notString(name);
  if (wrongType) return wrongType;
  const text = name as string;
  const messages: string[] = [];
  if (text.length > DNS1123_LABEL_MAX_LENGTH) {
    messages.push(`must be at most ${DNS1123_LABEL_MAX_LENGTH} characters long`);
  }
  if (!DNS1123_LABEL.test(text)) {
    messages.push(
      'must be a lowercase DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit (e.g. "jumpstarter" or "lab-1")',
    );
  }
  return messages;
}

/** A label or annotation key: `name` or `prefix/name`, prefix a DNS subdomain (`kubernetes.io/arch`). */
export function validateLabelKey(key: unknown): string[] {
  const wrongType = notString(key);
  if (wrongType) return wrongType;
  const parts = (key as string).split('/');
  if (parts.length > 2) {
    return [
      'must be a name with an optional DNS-subdomain prefix and at most one "/" (e.g. "example.com/board")',
    ];
  }
  const messages: string[] = [];
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    // A long key is cut short where it is shown: the length and the name part say which key it is.
    if (prefix.length > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      const shown = name.length > QUALIFIED_NAME_MAX_LENGTH ? `${name.slice(0, 60)}...` : name;
      messages.push(
        `must have a DNS-1123 subdomain before "/" of at most ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters (the prefix before "/${shown}" has ${prefix.length})`,
      );
    }
    if (!DNS1123_SUBDOMAIN.test(prefix)) {
      messages.push(
        'must have a DNS-1123 subdomain before "/" (lowercase letters, digits, "-" and ".", at most 253 characters)',
      );
    }
  }
  if (name === '') {
    messages.push('must not have an empty name part');
  } else {
    if (name.length > QUALIFIED_NAME_MAX_LENGTH) {
      messages.push(`must have a name part of at most ${QUALIFIED_NAME_MAX_LENGTH} characters`);
    }
    if (!QUALIFIED_NAME.test(name)) {
      messages.push(
        'must have a name part of letters, digits, "-", "_" and ".", starting and ending with a letter or digit (e.g. "board" or "kubernetes.io/arch")',
      );
    }
  }
  return messages;
}

/** A label value: empty, or up to 63 letters, digits, `-`, `_`, `.` starting and ending alphanumeric. */
export function validateLabelValue(value: unknown): string[] {
  const wrongType = notString(value);
  if (wrongType) return wrongType;
  const text = value as string;
  const messages: string[] = [];
  if (text.length > LABEL_VALUE_MAX_LENGTH) {
    messages.push(`must be at most ${LABEL_VALUE_MAX_LENGTH} characters long`);
  }
  if (!LABEL_VALUE.test(text)) {
    messages.push(
      'must be empty or consist of letters, digits, "-", "_" and ".", starting and ending with a letter or digit (e.g. "rpi4" or "true")',
    );
  }
  return messages;
}

/** Checks a labels map (`metadata.labels`, `matchLabels`, template labels); issues at `path[key]`. */
export function validateLabels(labels: unknown, path: string): ValidationIssue[] {
  if (labels === undefined || labels === null) return [];
  if (!isPlainObject(labels)) {
    return [{ path, value: labels, message: 'must be a map of label keys to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(labels)) {
    if (value === undefined) continue; // vanishes when serialized, like an absent label
    for (const message of validateLabelKey(key)) {
      issues.push({ path: keyPath(path, key), value: key, message: `label key ${message}` });
    }
    for (const message of validateLabelValue(value)) {
      issues.push({ path: keyPath(path, key), value, message: `label value ${message}` });
    }
  }
  return issues;
}

/** A size limit on a whole annotations map, and what to say when it is exceeded. */
export interface AnnotationSizeLimit {
  readonly bytes: number;
  readonly message: string;
}

const OBJECT_ANNOTATIONS_LIMIT: AnnotationSizeLimit = {
  bytes: TOTAL_ANNOTATION_SIZE_LIMIT,
  message: `annotations must total at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes (256 KiB), keys and values together`,
};

/**
 * Checks an annotations map: keys as label keys (case-insensitive, as Kubernetes does), string values,
 * and the total size (Kubernetes' 256 KiB per object unless `limit` says otherwise).
 */
export function validateAnnotations(
  annotations: unknown,
  path: string,
  limit: AnnotationSizeLimit = OBJECT_ANNOTATIONS_LIMIT,
): ValidationIssue[] {
  if (annotations === undefined || annotations === null) return [];
  if (!isPlainObject(annotations)) {
    return [{ path, value: annotations, message: 'must be a map of annotation keys to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (value === undefined) continue; // vanishes when serialized
    for (const message of validateLabelKey(key.toLowerCase())) {
      issues.push({ path: keyPath(path, key), value: key, message: `annotation key ${message}` });
    }
    if (typeof value !== 'string') {
      issues.push({ path: keyPath(path, key), value, message: 'annotation value must be a string' });
    }
  }
  const bytes = annotationBytes(annotations);
  if (bytes > limit.bytes) issues.push({ path, value: `${bytes} bytes`, message: limit.message });
  return issues;
}

/**
 * The name of instance `ordinal` of a set: `<set>-<n>`. Ordinals only grow and are never
 * reused, so a retried create hits AlreadyExists instead of making a twin.
 */
export function instanceName(setName: string, ordinal: number): string {
  if (!Number.isSafeInteger(ordinal) || ordinal < 0) {
    throw new RangeError(`instance ordinal must be a non-negative integer (got ${describeValue(ordinal)})`);
  }
  return `${setName}-${ordinal}`;
}

/** The ordinal in an instance name `<set>-<n>`, or undefined when `name` is not one of the set's. */
export function instanceOrdinal(setName: string, name: string): number | undefined {
  const prefix = `${setName}-`;
  if (!name.startsWith(prefix)) return undefined;
  const digits = name.slice(prefix.length);
  if (!/^(0|[1-9][0-9]*)$/.test(digits)) return undefined;
  const ordinal = Number(digits);
  return Number.isSafeInteger(ordinal) ? ordinal : undefined;
}
