/**
 * Reading the API server's errors, for every caller in the controller: client-node's `ApiException`
 * carries the HTTP code (`code`) and the server's `Status` body (as text or parsed); a watch's error
 * carries the code as `statusCode`. The ReplicaFailure condition and the logs want the server's
 * message, not the exception's long summary with headers.
 */

/** The HTTP status code of a failed request, when the error has one. */
export function statusCode(error: unknown): number | undefined {
  const { code, statusCode: watchCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'number') return code;
  return typeof watchCode === 'number' ? watchCode : undefined;
}

/** The server's `Status` body, parsed when it came as text. */
function statusBody(error: unknown): { message?: unknown; reason?: unknown } | undefined {
  const body = (error as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'string') return body as { message?: unknown; reason?: unknown } | undefined;
  try {
    return JSON.parse(body) as { message?: unknown; reason?: unknown };
  } catch {
    return undefined;
  }
}

export const isNotFound = (error: unknown): boolean => statusCode(error) === 404;

/** 410 Gone / Expired: a watch's resourceVersion or a list's continue token is too old. */
export const isGone = (error: unknown): boolean => statusCode(error) === 410;

/** 409 AlreadyExists (a 409 Conflict is something else: a precondition or version that moved). */
export function isAlreadyExists(error: unknown): boolean {
  if (statusCode(error) !== 409) return false;
  const reason = statusBody(error)?.reason;
  return reason === undefined || reason === 'AlreadyExists';
}

/**
 * 409 Conflict: a precondition or a resourceVersion the write was guarded by no longer holds — the
 * object changed (or was replaced) since it was read; nothing was written.
 */
export function isConflict(error: unknown): boolean {
  return statusCode(error) === 409 && statusBody(error)?.reason === 'Conflict';
}

/** The API server's message (`Status.message`), else the error's own message. */
export function apiErrorMessage(error: unknown): string {
  const message = statusBody(error)?.message;
  if (typeof message === 'string' && message !== '') return message;
  return error instanceof Error ? error.message : String(error);
}
