/**
 * Typed reads of untrusted input for validators that must never throw: each read checks the value's
 * shape, records an issue when it is wrong and returns the value only when it can be used further.
 *
 * Absent means `undefined` or `null`: the API server prunes `null` from fields that are not nullable,
 * and cdk8s drops it when rendering, so an optional field set to `null` is simply not set.
 */
import { nestingIssue } from './depth';
import type { ValidationIssue } from './issue';
import { isPlainObject } from './plain-object';
import { keyPath } from './path';

/** `true`, or a hint saying what the required field is for (`is required: <hint>`). */
export type RequiredHint = boolean | string;

export const INT32_MAX = 2_147_483_647;

export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export class IssueCollector {
  readonly issues: ValidationIssue[] = [];

  /** Records an issue; the value is shown only when one is passed (a missing field has none). */
  add(path: string, message: string, ...value: [] | [unknown]): void {
    this.issues.push(value.length > 0 ? { path, value: value[0], message } : { path, message });
  }

  addAll(issues: readonly ValidationIssue[]): void {
    this.issues.push(...issues);
  }

  /** True (and an issue recorded) when a required value is absent. */
  missing(value: unknown, path: string, required: RequiredHint | undefined): boolean {
    if (!isAbsent(value)) return false;
    if (required) this.add(path, typeof required === 'string' ? `is required: ${required}` : 'is required');
    return true;
  }

  object(value: unknown, path: string, required?: RequiredHint): Record<string, unknown> | undefined {
    if (this.missing(value, path, required)) return undefined;
    if (isPlainObject(value)) return value;
    this.add(path, 'must be an object', value);
    return undefined;
  }

  /** An entry of a list: `null` there is not an absent field but a broken entry, so it is reported. */
  listEntry(value: unknown, path: string): Record<string, unknown> | undefined {
    if (isPlainObject(value)) return value;
    this.add(path, 'must be an object', value);
    return undefined;
  }

  /** Records an issue when a schemaless value is nested deeper than MAX_USER_DATA_DEPTH (depth.ts). */
  shallow(value: unknown, path: string): void {
    const issue = nestingIssue(path, value);
    if (issue) this.issues.push(issue);
  }

  list(value: unknown, path: string, required?: RequiredHint): unknown[] | undefined {
    if (this.missing(value, path, required)) return undefined;
    if (Array.isArray(value)) return value;
    this.add(path, 'must be a list', value);
    return undefined;
  }

  string(
    value: unknown,
    path: string,
    options: { readonly required?: RequiredHint; readonly nonEmpty?: boolean } = {},
  ): string | undefined {
    if (this.missing(value, path, options.required)) return undefined;
    if (typeof value !== 'string') {
      this.add(path, 'must be a string', value);
      return undefined;
    }
    if (options.nonEmpty && value === '') {
      this.add(path, 'must not be empty', value);
      return undefined;
    }
    return value;
  }

  boolean(value: unknown, path: string): boolean | undefined {
    if (this.missing(value, path, false)) return undefined;
    if (typeof value === 'boolean') return value;
    this.add(path, 'must be true or false', value);
    return undefined;
  }

  oneOf<T extends string>(
    value: unknown,
    path: string,
    allowed: readonly T[],
    required?: RequiredHint,
  ): T | undefined {
    if (this.missing(value, path, required)) return undefined;
    if ((allowed as readonly unknown[]).includes(value)) return value as T;
    this.add(path, `must be one of ${allowed.join(', ')}`, value);
    return undefined;
  }

  /** A whole number within [min, max] (JSON Schema `type: integer` with `minimum`/`format: int32`). */
  integer(
    value: unknown,
    path: string,
    options: { readonly min?: number; readonly max?: number; readonly required?: RequiredHint } = {},
  ): number | undefined {
    if (this.missing(value, path, options.required)) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.add(path, 'must be a whole number', value);
      return undefined;
    }
    if (options.min !== undefined && value < options.min) {
      this.add(path, `must be greater than or equal to ${options.min}`, value);
      return undefined;
    }
    if (options.max !== undefined && value > options.max) {
      this.add(path, `must be less than or equal to ${options.max}`, value);
      return undefined;
    }
    return value;
  }

  /** A map whose values are strings (`nodeSelector`); issues at `path[key]`. Undefined members vanish in JSON. */
  stringMap(value: unknown, path: string): Record<string, string> | undefined {
    const map = this.object(value, path);
    if (!map) return undefined;
    let ok = true;
    for (const [key, item] of Object.entries(map)) {
      if (item !== undefined && typeof item !== 'string') {
        this.add(keyPath(path, key), 'must be a string', item);
        ok = false;
      }
    }
    return ok ? (map as Record<string, string>) : undefined;
  }
}
