/**
 * client-go `retry.RetryOnConflict(backoff, fn)` on top of async-retry: `fn` runs again while it
 * fails with a Conflict (409), at most `backoff.steps` times in all; any other error ends it at
 * once, and after the last attempt the conflict is rethrown.
 */
import retry from 'async-retry';
import { isConflict } from '../controller/errors.js';

/** wait.Backoff without jitter: `steps` attempts, waits of durationMs × factor^n between them. */
export interface Backoff {
  readonly steps: number;
  readonly durationMs: number;
  readonly factor: number;
}

/** client-go `retry.DefaultRetry`: 5 attempts, 10 ms apart. */
export const DefaultRetry: Backoff = { steps: 5, durationMs: 10, factor: 1 };
/** client-go `retry.DefaultBackoff`: 4 attempts, waits of 10, 50 and 250 ms. */
export const DefaultBackoff: Backoff = { steps: 4, durationMs: 10, factor: 5 };

/** The async-retry options that reproduce `backoff` (exported so the mapping is tested). */
export function retryOptions(backoff: Backoff): retry.Options {
  return {
    retries: Math.max(0, backoff.steps - 1),
    minTimeout: backoff.durationMs,
    maxTimeout: Number.POSITIVE_INFINITY,
    factor: backoff.factor,
    randomize: false,
  };
}

/** Runs `fn` until it succeeds, fails with a non-conflict error, or `backoff.steps` attempts failed. */
export function retryOnConflict<T>(fn: () => Promise<T>, backoff: Backoff = DefaultBackoff): Promise<T> {
  return retry(async (bail) => {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err)) {
        bail(err as Error);
        return undefined as never;
      }
      throw err;
    }
  }, retryOptions(backoff));
}
