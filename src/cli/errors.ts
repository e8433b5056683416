/**
 * How CLI failures reach the user. Commands throw CliError (or let ApiError escape);
 * `formatError` renders both the way kubectl/oc do, so scripts grepping oc output keep working.
 */
import { ApiError } from '../controller/errors.js';
import { aggregateMessage, userMessage } from '../util/error-message.js';

/** A user-facing failure: printed as `error: <message>` and mapped to a non-zero exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(message: string, readonly exitCode = 1, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Exit code for failures: kubectl exits 1 for every error, and so do we. */
export const ExitFailure = 1;

/**
 * Renders an error as one or more lines (without trailing newline): API errors as
 * `Error from server (<Reason>): <message>`, everything else as `error: <message>`.
 */
export function formatError(err: unknown): string {
  const message = userMessage(err);
  return err instanceof ApiError || message.startsWith('error: ') ? message : `error: ${message}`;
}

/** Exit code for an error thrown by a command. */
export const exitCodeFor = (err: unknown): number => (err instanceof CliError ? err.exitCode : ExitFailure);

/** The NotFound text the API server uses for a missing DC; rebuilt so it never depends on the transport. */
export function dcNotFound(name: string, cause?: unknown): ApiError {
  return new ApiError(`deploymentconfigs.apps.openshift.io "${name}" not found`, 404, 'NotFound', { cause });
}

/** Aggregates several errors the way utilerrors.NewAggregate prints them. */
export class AggregateCliError extends CliError {
  constructor(readonly errors: unknown[]) {
    super(aggregateMessage(errors, userMessage));
  }
}
