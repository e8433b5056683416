import { describe, expect, it } from '@jest/globals';
import { parseBindAddress, statusBatchMs } from '../../../src/manager-options.js';

describe('--metrics-bind-address', () => {
  it('parses [host]:port; 0 or empty turns serving off', () => {
    expect(parseBindAddress('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseBindAddress(':8443')).toEqual({ port: 8443 });
    expect(parseBindAddress('9090')).toEqual({ port: 9090 });
    expect(parseBindAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseBindAddress('0')).toBeUndefined();
    expect(parseBindAddress('')).toBeUndefined();
    expect(() => parseBindAddress('web:hook', '--webhook-bind-address')).toThrow('invalid --webhook-bind-address "web:hook"');
  });

  it('names the flag when the port is not a positive integer', () => {
    expect(() => parseBindAddress('localhost:http')).toThrow('invalid --metrics-bind-address "localhost:http"');
    expect(() => parseBindAddress('localhost:-1')).toThrow('invalid --metrics-bind-address');
  });
});

describe('--status-batch-period', () => {
  it('is seconds (fractions allowed, 0 turns batching off), two seconds by default', () => {
    expect(statusBatchMs(undefined)).toBe(2000);
    expect(statusBatchMs(0)).toBe(0);
    expect(statusBatchMs(0.25)).toBe(250);
  });

  it('names the flag for a negative, huge or non-numeric period', () => {
    for (const bad of [-1, 61, Number.NaN]) expect(() => statusBatchMs(bad)).toThrow('invalid --status-batch-period');
  });
});
