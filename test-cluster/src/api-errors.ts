/**
 * The errors of the test cluster's storage, worded as kube-apiserver words them (clients and tests
 * match on reason, code and often the message): NotFound, Conflict, AlreadyExists, Invalid with
 * causes, BadRequest.
 */
import { errorBody, NIL_PATH } from './field-errors';
import { ApiError, type AdmissionCause, type ResourceType } from './types';

export const qualifiedResource = (rt: ResourceType) => (rt.group ? `${rt.plural}.${rt.group}` : rt.plural);
export const resourceDetails = (rt: ResourceType, name: string) => ({
  name,
  ...(rt.group ? { group: rt.group } : {}),
  kind: rt.plural,
});

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);

export function notFound(rt: ResourceType, name: string): ApiError {
  return new ApiError(
    404,
    'NotFound',
    `${qualifiedResource(rt)} "${name}" not found`,
    resourceDetails(rt, name),
  );
}

export function conflict(rt: ResourceType, name: string, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(rt)} "${name}": ${why}`,
    resourceDetails(rt, name),
  );
}

/**
 * 409 naming the kind rather than the resource (`ConfigMap "c"`, `ExporterSet.<group> "s"`), as
 * kube-apiserver words a delete's failed precondition.
 */
export function kindConflict(rt: ResourceType, name: string, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${rt.group ? `${rt.kind}.${rt.group}` : rt.kind} "${name}": ${why}`,
    { name, ...(rt.group ? { group: rt.group } : {}), kind: rt.kind },
  );
}

/** Where etcd keeps an object: `/registry/<plural>/...` for built-in kinds, `/registry/<group>/<plural>/...` for custom ones. */
export function etcdKey(rt: ResourceType, namespace: string | undefined, name: string): string {
  return `/registry/${rt.custom ? `${rt.group}/` : ''}${rt.plural}/${namespace ? `${namespace}/` : ''}${name}`;
}

export const STALE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with Kubernetes' message: `<Kind>.<group> "<name>" is invalid: <field>: <error>` (bracketed list when several). */
export function invalid(
  kind: string,
  group: string,
  name: string,
  causes: readonly AdmissionCause[],
): ApiError {
  const errors = causes.map((c) => `${c.field || NIL_PATH}: ${c.message}`);
  const summary = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  return new ApiError(
    422,
    'Invalid',
    `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${summary}`,
    {
      ...(name ? { name } : {}),
      ...(group ? { group } : {}),
      kind,
      causes: causes.map((c) => ({
        reason: c.reason ?? 'FieldValueInvalid',
        message: c.message,
        field: c.field || NIL_PATH,
      })),
    },
  );
}

export const invalidCause = (field: string, value: unknown, message: string): AdmissionCause => ({
  field,
  message: errorBody({ type: 'FieldValueInvalid', value, detail: message }),
  reason: 'FieldValueInvalid',
});

export const noSuchSubresource = () =>
  new ApiError(404, 'NotFound', 'the server could not find the requested resource');
