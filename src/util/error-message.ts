/**
 * How thrown values become text, once: the plain message, kubectl's `Error from server
 * (<Reason>): …` for API errors, and apimachinery's `utilerrors.NewAggregate` format for several
 * errors (`msg` for one, `[msg1, msg2]` for more), which OpenShift's messages and events use.
 */
import { ApiError } from '../controller/errors.js';

/** The message of an Error, or the string form of anything else that was thrown. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const reasonByCode: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  409: 'Conflict', 410: 'Expired', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError',
  503: 'ServiceUnavailable', 504: 'Timeout',
};

/**
 * What kubectl prints for a failure: `Error from server (<Reason>): <message>` for an API error
 * (the reason derived from the HTTP code when the server sent none), the plain message otherwise.
 */
export function userMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const reason = err.reason ?? reasonByCode[err.code] ?? 'Unknown';
    return `Error from server (${reason}): ${err.message}`;
  }
  return errorMessage(err);
}

/** Joins several errors the way an apimachinery aggregate prints them; `format` renders one. */
export function aggregateMessage(errors: readonly unknown[], format: (err: unknown) => string = errorMessage): string {
  const messages = errors.map(format);
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}
