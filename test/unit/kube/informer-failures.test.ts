import { describe, expect, it } from '@jest/globals';
import { steppableWallClock } from '../../support/wall-clock.js';
import { ApiError } from '../../../src/controller/errors.js';
import { ListWatchFailureReporter, isNotReadyYet } from '../../../src/kube/informer-failures.js';

describe('list/watch failure reporting while the API server settles', () => {
  const tooMany = new ApiError('storage is (re)initializing', 429, 'TooManyRequests');

  it('keeps 429/503 quiet (debug) for the quiet period, then warns; other errors warn at once', () => {
    let now = 1_000;
    const r = new ListWatchFailureReporter(20_000, () => now);
    expect(r.level(tooMany)).toBe('debug');
    now += 19_999;
    expect(r.level(new ApiError('unavailable', 503))).toBe('debug');
    now += 1;
    expect(r.level(tooMany)).toBe('warn');
    expect(r.level(new ApiError('forbidden', 403, 'Forbidden'))).toBe('warn');
    expect(r.level(new Error('ECONNREFUSED'))).toBe('warn');
  });

  it('starts a new quiet period after a successful list', () => {
    let now = 0;
    const r = new ListWatchFailureReporter(10_000, () => now);
    r.level(tooMany);
    now = 50_000;
    expect(r.level(tooMany)).toBe('warn');
    r.succeeded();
    expect(r.level(tooMany)).toBe('debug');
    expect(isNotReadyYet(tooMany)).toBe(true);
    expect(isNotReadyYet(new ApiError('x', 500))).toBe(false);
  });

  it('measures the quiet period in elapsed time: a wall clock stepped back does not silence it', async () => {
    const wallClock = steppableWallClock();
    const r = new ListWatchFailureReporter(30);
    expect(r.level(tooMany)).toBe('debug');
    wallClock.step(-3600_000);
    try {
      await new Promise((res) => setTimeout(res, 50));
      expect(r.level(tooMany)).toBe('warn');
    } finally {
      wallClock.restore();
    }
  });
});
