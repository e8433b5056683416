/**
 * How loudly an informer reports a failed list/watch. A freshly started API server answers 429
 * ("storage is (re)initializing": its watch cache for a resource is still filling) or 503 for
 * a few seconds; a controller started with it would log a warning with a stack for what is
 * normal start-up. Such "not ready yet" answers are logged at debug while they have lasted less
 * than `quietMs` since the first one; anything else, or a wait that lasts, is a warning.
 */
import { ApiError } from '../controller/errors.js';

/** 429 Too Many Requests or 503 Service Unavailable: the server asks to retry later. */
export const isNotReadyYet = (err: unknown): boolean => err instanceof ApiError && (err.code === 429 || err.code === 503);

export class ListWatchFailureReporter {
  private firstNotReadyAt: number | undefined;

  constructor(
    private readonly quietMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The level for this failure; call `succeeded()` when a list works again. */
  level(err: unknown): 'debug' | 'warn' {
    if (!isNotReadyYet(err)) return 'warn';
    const now = this.now();
    this.firstNotReadyAt ??= now;
    return now - this.firstNotReadyAt < this.quietMs ? 'debug' : 'warn';
  }

  succeeded(): void {
    this.firstNotReadyAt = undefined;
  }
}
