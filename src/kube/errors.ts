/**
 * Converts client-node failures into the controller's typed `ApiError`, so sync code can use
 * `isNotFound`/`isConflict`/… from controller/errors.ts without knowing the HTTP library.
 */
import type { ApiException } from '@kubernetes/client-node';
import { ApiError, statusCausesOf, type StatusCause } from '../controller/errors.js';

/**
 * client-node's ApiException, recognised by its shape (a numeric HTTP `code`, the answer's `body`
 * and `headers`) rather than by its class: importing the class would load all of client-node
 * into the controller, which talks through src/kube/rest.ts and loads client-node only for the
 * kubeconfigs that need it (design.md §1.1). Node's system errors carry a string `code`.
 */
function isApiException(err: unknown): err is ApiException<unknown> {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; headers?: unknown };
  return typeof e.code === 'number' && 'body' in e && typeof e.headers === 'object' && e.headers !== null;
}

interface StatusFields {
  reason?: string;
  message?: string;
  causes?: StatusCause[];
}

function parseStatus(body: unknown): StatusFields & { raw?: string } {
  // client-node 1.x hands the Status back as JSON *text* for error responses.
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed !== null && typeof parsed === 'object') return pick(parsed as Record<string, unknown>);
    } catch {
      // Not JSON (e.g. a proxy's "404 page not found"); keep a short excerpt for the message.
    }
    return { raw: body.slice(0, 200).trim() };
  }
  if (body !== null && typeof body === 'object') return pick(body as Record<string, unknown>);
  return {};
}

function pick(s: Record<string, unknown>): StatusFields {
  return {
    reason: typeof s['reason'] === 'string' && s['reason'] !== '' ? s['reason'] : undefined,
    message: typeof s['message'] === 'string' && s['message'] !== '' ? s['message'] : undefined,
    causes: statusCausesOf(s),
  };
}

/**
 * Returns an `ApiError` for an API-server answer (client-node `ApiException`, or the plain
 * `Error` with a numeric `statusCode` that `Watch` throws for a non-200 watch response);
 * anything else — network `FetchError`, `RequiredError`, an `ApiError` already — is returned
 * unchanged (network errors are retriable by the runner's default policy).
 * The original error is kept as `cause`.
 */
export function toApiError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  if (isApiException(err)) {
    const code = typeof err.code === 'number' ? err.code : 0;
    const s = parseStatus(err.body);
    return new ApiError(s.message ?? s.raw ?? `HTTP ${code}`, code, s.reason, { cause: err, causes: s.causes });
  }
  const statusCode = err instanceof Error ? (err as Error & { statusCode?: unknown }).statusCode : undefined;
  if (err instanceof Error && typeof statusCode === 'number') {
    const code = statusCode;
    return new ApiError(err.message || `HTTP ${code}`, code, undefined, { cause: err });
  }
  return err;
}

/** Awaits `p`, rethrowing any failure through `toApiError`. */
export async function wrapApi<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw toApiError(err);
  }
}
