/**
 * The one fake clock of the unit tests. `now()` is settable (`set`, `advance`); `sleep` and
 * `setTimer` run on virtual time that jumps to the next timer once all pending work has drained
 * (a `setImmediate` turn), so code that waits minutes runs instantly and in a fixed order.
 *
 * Two readings, as a real machine has: the wall clock (`now()`) and elapsed time
 * (`monotonicMs()`). Time passing (`advance`, timers) moves both; a step of the wall clock
 * (`set`, `stepWallClock`: NTP, a resumed VM) moves only `now()`, and timers keep to elapsed time.
 */
import type { DeployerClock } from '../../src/deployer/ports.js';

export class FakeClock implements DeployerClock {
  private t: number;
  private mono = 0;
  private seq = 0;
  private timers: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  private scheduled = false;

  /** Starts at 2024-01-01T00:00:00Z unless told otherwise. */
  constructor(start: Date | string | number = '2024-01-01T00:00:00Z') {
    this.t = typeof start === 'number' ? start : new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.t);
  }

  monotonicMs(): number {
    return this.mono;
  }

  /** Steps the wall clock to `to`; elapsed time and timers are not moved. */
  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }

  /** Steps the wall clock by `ms` (negative: back); elapsed time and timers are not moved. */
  stepWallClock(ms: number): void {
    this.t += ms;
  }

  /** Lets `ms` pass (both readings) without firing timers. */
  advance(ms: number): void {
    this.t += ms;
    this.mono += ms;
  }

  elapsedSince(start: number): number {
    return this.t - start;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(ms, resolve));
  }

  /** Runs `fn` once virtual time reaches now + `ms`; returns a cancel function. */
  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.mono + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    this.schedule();
    return () => {
      timer.cancelled = true;
    };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.timers = this.timers.filter((x) => !x.cancelled);
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) return;
      if (next.at > this.mono) this.advance(next.at - this.mono);
      next.fn();
      if (this.timers.length > 0) this.schedule();
    });
  }
}
