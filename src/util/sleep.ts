/**
 * The one sleep of the code base. Loops that must stop promptly (informers, leader election, CLI
 * watches) pass an AbortSignal: aborting resolves the sleep at once instead of leaving a timer
 * that keeps the process alive.
 */

/** The longest delay a Node timer holds; a longer one (or a non-number) fires after 1 ms. */
const MaxTimerDelayMs = 2 ** 31 - 1;

/** Resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    // A wait longer than a timer holds (a legal updatePeriodSeconds of weeks) goes in pieces.
    let left = Math.max(0, ms);
    let timer = setTimeout(tick, Math.min(left, MaxTimerDelayMs));
    function tick(): void {
      left -= MaxTimerDelayMs;
      if (left > 0) timer = setTimeout(tick, Math.min(left, MaxTimerDelayMs));
      else done();
    }
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
