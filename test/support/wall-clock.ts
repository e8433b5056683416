/**
 * The machine's wall clock, steppable: `Date.now()` (however a caller holds it) reads `step`
 * milliseconds off from here on, as after NTP or a resumed VM; elapsed time (performance.now(),
 * timers) is untouched. `restore()` in a finally.
 */
import { jest } from '@jest/globals';

export function steppableWallClock(): { step(ms: number): void; restore(): void } {
  const wall = Date.now;
  let offset = 0;
  const spy = jest.spyOn(Date, 'now').mockImplementation(() => wall() + offset);
  return { step: (ms) => { offset += ms; }, restore: () => spy.mockRestore() };
}
