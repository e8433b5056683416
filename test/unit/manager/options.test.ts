import { describe, expect, it } from '@jest/globals';
import { parseBindAddress } from '../../../src/manager-options.js';

describe('--metrics-bind-address', () => {
  it('parses [host]:port; 0 or empty turns serving off', () => {
    expect(parseBindAddress('127.0.0.1:8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseBindAddress(':8443')).toEqual({ port: 8443 });
    expect(parseBindAddress('9090')).toEqual({ port: 9090 });
    expect(parseBindAddress('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseBindAddress('0')).toBeUndefined();
    expect(parseBindAddress('')).toBeUndefined();
  });

  it('names the flag when the port is not a positive integer', () => {
    expect(() => parseBindAddress('localhost:http')).toThrow('invalid --metrics-bind-address "localhost:http"');
    expect(() => parseBindAddress('localhost:-1')).toThrow('invalid --metrics-bind-address');
  });
});
