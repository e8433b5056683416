/**
 * The one sleep of the code base. Loops that must stop promptly (informers, leader election, CLI
 * watches) pass an AbortSignal: aborting resolves the sleep at once instead of leaving a timer
 * that keeps the process alive.
 */

/** Resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
