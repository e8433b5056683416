/**
 * The one fake clock of the unit tests. `now()` is settable (`set`, `advance`); `sleep` and
 * `setTimer` run on virtual time that jumps to the next timer once all pending work has drained
 * (a `setImmediate` turn), so code that waits minutes runs instantly and in a fixed order.
 */
import type { DeployerClock } from '../../src/deployer/ports.js';

export class FakeClock implements DeployerClock {
  private t: number;
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

  set(to: Date | string): void {
    this.t = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.t += ms;
  }

  elapsedSince(start: number): number {
    return this.t - start;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(ms, resolve));
  }

  /** Runs `fn` once virtual time reaches now + `ms`; returns a cancel function. */
  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
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
      this.t = Math.max(this.t, next.at);
      next.fn();
      if (this.timers.length > 0) this.schedule();
    });
  }
}
