/**
 * The admission simulator for the library tests: what a Kubernetes API server does to a custom
 * resource on create or update (status reset, pruning, defaulting, ajv validation, CEL rules with
 * transition rules, CEL skipped on blocking schema errors). The logic is the test cluster's
 * (test-cluster/src/admission.ts, see its module doc); this adapter keeps the simple
 * `{ path, message }` shape the CRD tests assert on.
 */
import type { CustomResourceDefinition } from '../../lib/crds';
import { CEL_SKIPPED_MESSAGE, compileCrd } from 'virtual-exporters-test-cluster';

export { CEL_SKIPPED_MESSAGE };

export interface AdmissionError {
  /** Kubernetes-style field path, e.g. `spec.template.spec.drivers[1].name`, `spec.selector.matchLabels[app]`. */
  readonly path: string;
  readonly message: string;
}

export interface AdmitOptions {
  /** The stored object, for an update: enables transition rules (`oldSelf`) and keeps its status. */
  readonly oldObject?: unknown;
  /** Validate `status` as given (a write to the /status subresource) instead of resetting it. */
  readonly keepStatus?: boolean;
  /** Version to validate against; default: the one in the object's apiVersion, else the storage version. */
  readonly version?: string;
}

export interface AdmissionResult {
  /** The object as it would be stored: status reset, unknown fields pruned, defaults applied. */
  readonly object: Record<string, unknown>;
  readonly errors: AdmissionError[];
  /** Paths of fields removed because the schema does not know them. */
  readonly pruned: string[];
}

/** Simulates admission of `obj` (a create, or an update when `oldObject` is given) under `crd`. */
export function admit(
  crd: CustomResourceDefinition,
  obj: unknown,
  options: AdmitOptions = {},
): AdmissionResult {
  const { object, findings, pruned } = compileCrd(crd).review(obj, options);
  return { object, errors: findings.map(({ path, message }) => ({ path, message })), pruned };
}

/** Convenience for tests: the error messages only. */
export function admissionMessages(result: AdmissionResult): string[] {
  return result.errors.map((e) => e.message);
}
