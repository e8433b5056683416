import { describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../../../src/controller/errors.js';
import { canonicalJson } from '../../../src/util/canonical-json.js';
import { aggregateMessage, errorMessage, userMessage } from '../../../src/util/error-message.js';
import { formatGoMap, goQuote } from '../../../src/util/go-format.js';
import { sleep } from '../../../src/util/sleep.js';

describe('sleep', () => {
  it('resolves at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const started = performance.now();
    await sleep(60_000, controller.signal);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('resolves early when the signal aborts while sleeping', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal).then(() => 'woken');
    controller.abort();
    await expect(slept).resolves.toBe('woken');
  });

  it('a sleep longer than a Node timer holds (~24.8 days, a legal updatePeriodSeconds) does not end after 1 ms', async () => {
    jest.useFakeTimers();
    try {
      let done = false;
      void sleep(30 * 86_400_000).then(() => { done = true; });
      await jest.advanceTimersByTimeAsync(1000);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(30 * 86_400_000 - 1001);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('resolves after the time without a signal', async () => {
    await expect(sleep(1).then(() => 'done')).resolves.toBe('done');
  });
});

describe('error messages', () => {
  it('errorMessage reads Errors and stringifies anything else', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });

  it('userMessage prints API errors as kubectl does, deriving a missing reason from the code', () => {
    expect(userMessage(new ApiError('x is invalid', 422, 'Invalid'))).toBe('Error from server (Invalid): x is invalid');
    expect(userMessage(new ApiError('oops', 500))).toBe('Error from server (InternalError): oops');
    expect(userMessage(new ApiError('odd', 418))).toBe('Error from server (Unknown): odd');
    expect(userMessage(new Error('local'))).toBe('local');
  });

  it('aggregateMessage prints one error bare and several in brackets', () => {
    expect(aggregateMessage([new Error('a')])).toBe('a');
    expect(aggregateMessage([new Error('a'), 'b'])).toBe('[a, b]');
    expect(aggregateMessage([new ApiError('gone', 404)], userMessage)).toBe('Error from server (NotFound): gone');
  });
});

describe('canonicalJson and Go formatting', () => {
  it('canonicalJson ignores key order and undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, 1] } })).toBe(canonicalJson({ a: { c: [2, 1] }, b: 1 }));
    expect(canonicalJson(undefined)).toBe('undefined');
  });

  it('canonicalJson with dropEmpty reads null, empty lists and objects with nothing left as absent, and keeps list items and other zero values', () => {
    const typed = { containers: [{ name: 'c', resources: { limits: null }, env: [], securityContext: {} }, {}], volumes: [{ name: 'v', emptyDir: {} }], hostNetwork: false, replicas: 0, image: '' };
    expect(canonicalJson(typed, { dropEmpty: true })).toBe(canonicalJson({ containers: [{ name: 'c' }, {}], volumes: [{ name: 'v' }], hostNetwork: false, replicas: 0, image: '' }));
    expect(canonicalJson({ a: { b: [] } }, { dropEmpty: true })).toBe('{}');
    expect(canonicalJson({ a: { b: [] } })).toBe('{"a":{"b":[]}}');
  });
  it('goQuote and formatGoMap read like Go %q and %v', () => {
    expect(goQuote('web-1')).toBe('"web-1"');
    expect(formatGoMap({ b: '2', a: '1' })).toBe('map[a:1 b:2]');
    expect(formatGoMap(undefined)).toBe('map[]');
  });
});
