/**
 * Typed errors that tell the work-queue runner what to do. Sync code throws these; the runner
 * never inspects message text.
 */

/** Never retried: the object cannot be handled until it changes (e.g. an encoding failure). */
export class FatalError extends Error {
  override readonly name = 'FatalError';
}

/** Retried with backoff; when dropped after the retry budget a Warning event is emitted. */
export class ActionableError extends Error {
  override readonly name: string = 'ActionableError';
}

/**
 * The deployer service account or its role binding is missing (or bound to something else) in a
 * namespace where the controller may not, or must not, fix it. Actionable: the message says what
 * an administrator has to create, and it is retried as they may do so at any time.
 */
export class DeployerAccessMissingError extends ActionableError {
  override readonly name = 'DeployerAccessMissingError';
}

/** Retried with backoff, logged quietly: expected while caches catch up or writers race. */
export class RetriableError extends Error {
  override readonly name = 'RetriableError';
}

/** One entry of a Status's `details.causes`: for a 422, a field and what is wrong with it. */
export interface StatusCause {
  /** e.g. `spec.template.spec.containers[0].image` */
  readonly field?: string;
  /** e.g. `Required value` */
  readonly message?: string;
  /** e.g. `FieldValueRequired` */
  readonly reason?: string;
}

/**
 * An API error carrying the HTTP status, the Status reason and its causes, normalised by the kube
 * layer.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly causes: readonly StatusCause[];
  constructor(
    message: string,
    readonly code: number,
    readonly reason?: string,
    options?: { cause?: unknown; causes?: readonly StatusCause[] },
  ) {
    super(message, options);
    this.causes = options?.causes ?? [];
  }
}

/** The `details.causes` of a Status object (anything else: none), keeping only string fields. */
export function statusCausesOf(status: unknown): StatusCause[] {
  const details = (status as { details?: { causes?: unknown } } | null | undefined)?.details;
  if (!Array.isArray(details?.causes)) return [];
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  return details.causes.filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object')
    .map((c) => ({ field: text(c['field']), message: text(c['message']), reason: text(c['reason']) }));
}

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.code === 404;
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.code === 409 && err.reason !== 'AlreadyExists';
export const isAlreadyExists = (err: unknown): boolean => err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists';
export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.code === 403;
export const isInvalid = (err: unknown): boolean => err instanceof ApiError && err.code === 422;
export const isGone = (err: unknown): boolean => err instanceof ApiError && err.code === 410;
