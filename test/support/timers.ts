/**
 * Manually advanced time for the WorkQueue and rate-limiter tests (implements QueueTimers). Not the
 * FakeClock (clock.ts): the queue tests step time by hand ("5 ms later, nothing yet"), where the
 * FakeClock jumps to the next timer on its own once all work has drained.
 */
import type { QueueTimers } from '../../src/controller/workqueue.js';

export class FakeTimers implements QueueTimers {
  private t = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now = (): number => this.t;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = this.nextId++;
    // As Node's setTimeout: a delay above 2^31-1 ms or not a number fires after 1 ms.
    const delay = ms >= 1 && ms <= 2 ** 31 - 1 ? ms : 1;
    this.timers.set(id, { at: this.t + delay, fn });
    return id;
  };

  clearTimeout = (h: unknown): void => {
    this.timers.delete(h as number);
  };

  /** Moves time forward, firing due timers in deadline order. */
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, v]) => v.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = target;
  }

  pending(): number {
    return this.timers.size;
  }
}
