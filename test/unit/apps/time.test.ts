import { describe, expect, it } from '@jest/globals';
import { formatGoTime } from '../../../src/apps/time.js';

describe('formatGoTime (Go time.Time.String() in UTC)', () => {
  it.each([
    [new Date('2024-01-02T03:04:05Z'), '2024-01-02 03:04:05 +0000 UTC'],
    ['2024-01-02T03:04:05Z', '2024-01-02 03:04:05 +0000 UTC'],
    ['2024-12-31T23:59:59+02:00', '2024-12-31 21:59:59 +0000 UTC'],
    ['2024-01-02T03:04:05.123456789Z', '2024-01-02 03:04:05.123456789 +0000 UTC'],
    ['2024-01-02T03:04:05.120000Z', '2024-01-02 03:04:05.12 +0000 UTC'],
    ['2024-01-02T03:04:05.000Z', '2024-01-02 03:04:05 +0000 UTC'],
    [new Date('2024-01-02T03:04:05.250Z'), '2024-01-02 03:04:05.25 +0000 UTC'],
    [undefined, '0001-01-01 00:00:00 +0000 UTC'],
    ['not a time', 'not a time'],
  ])('%p -> %s', (input, expected) => {
    expect(formatGoTime(input)).toBe(expected);
  });
});
