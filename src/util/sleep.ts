/**
 * The one sleep of the code base. Loops that must stop promptly (informers, leader election, CLI
 * watches) pass an AbortSignal: aborting resolves the sleep at once instead of leaving a timer
 * that keeps the process alive.
 */

/** The longest delay a Node timer holds; a longer one (or a non-number) fires after 1 ms. */
export const MaxTimerDelayMs = 2 ** 31 - 1;

/** A cancellable one-shot timer from `setLongTimeout`. */
export interface LongTimer {
  clear(): void;
}

/**
 * setTimeout for any delay: a wait longer than a Node timer holds (a legal timeoutSeconds or
 * updatePeriodSeconds of weeks) goes in pieces instead of firing after 1 ms. `unref`: the timer
 * alone does not keep the process alive.
 */
export function setLongTimeout(fn: () => void, ms: number, options: { unref?: boolean } = {}): LongTimer {
  let left = Number.isFinite(ms) ? Math.max(0, ms) : MaxTimerDelayMs;
  let timer: ReturnType<typeof setTimeout>;
  const arm = (): void => {
    timer = setTimeout(tick, Math.min(left, MaxTimerDelayMs));
    if (options.unref) timer.unref?.();
  };
  function tick(): void {
    left -= MaxTimerDelayMs;
    if (left > 0) arm();
    else fn();
  }
  arm();
  return { clear: () => clearTimeout(timer) };
}

/** A setInterval period a Node timer holds: checking more often than every ~24.8 days is harmless. */
export function timerPeriodMs(ms: number): number {
  return Math.min(Math.max(1, ms), MaxTimerDelayMs);
}

/** Resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const timer = setLongTimeout(done, ms);
    function done(): void {
      timer.clear();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
