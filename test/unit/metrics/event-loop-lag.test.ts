import { describe, expect, it } from '@jest/globals';
import { EventLoopSamplingMs, Metrics } from '../../../src/metrics.js';

const sample = (text: string, name: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} not exported`);
  return Number(line.slice(name.length + 1));
};
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('event-loop lag metrics', () => {
  it('exports prom-client\'s nodejs_eventloop_lag_* gauges: the delay past the sampling period, a stall as its length', async () => {
    const m = new Metrics();
    await wait(EventLoopSamplingMs * 4);
    const idle = await m.registry.metrics();
    for (const part of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      const value = sample(idle, `nodejs_eventloop_lag_${part}_seconds`);
      expect(Number.isFinite(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(sample(idle, 'nodejs_eventloop_lag_p50_seconds')).toBeLessThan(0.05);
    expect(sample(idle, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // Each name once: prom-client's own gauges of these names were replaced, not duplicated.
    expect(idle.match(/^nodejs_eventloop_lag_p99_seconds /gm)).toHaveLength(1);

    // The loop blocked for 300 ms: the max since the last scrape shows it (less the sampling period at most).
    await wait(EventLoopSamplingMs);
    const until = performance.now() + 300;
    while (performance.now() < until) { /* a stalled loop */ }
    await wait(EventLoopSamplingMs * 2);
    const stalled = await m.registry.metrics();
    expect(sample(stalled, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThan(0.3 - EventLoopSamplingMs / 1000);
    // Each scrape covers the time since the last one.
    await wait(EventLoopSamplingMs * 3);
    expect(sample(await m.registry.metrics(), 'nodejs_eventloop_lag_max_seconds')).toBeLessThan(0.2);
  });
});
