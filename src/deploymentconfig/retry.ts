/**
 * client-go `retry.RetryOnConflict(retry.DefaultBackoff, fn)`: used for RC writes that race with
 * the deployer. Conflicts only; any other error ends the loop at once.
 */
import { isConflict } from '../controller/errors.js';

/** Sleeps `ms` milliseconds; injected so unit tests do not wait. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** DefaultBackoff: 4 attempts, 10 ms × 5^n, jitter 0.1 → waits of ~10, 50, 250 ms. */
export const DefaultBackoff = { steps: 4, durationMs: 10, factor: 5, jitter: 0.1 } as const;

/**
 * Runs `fn` until it succeeds, fails with a non-conflict error, or the attempts are used up (the
 * last conflict is then rethrown, like wait.ErrWaitTimeout is mapped back by RetryOnConflict).
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, sleep: Sleep = realSleep, random: () => number = Math.random): Promise<T> {
  let delay: number = DefaultBackoff.durationMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || attempt >= DefaultBackoff.steps) throw err;
    }
    await sleep(delay + delay * DefaultBackoff.jitter * random());
    delay *= DefaultBackoff.factor;
  }
}
