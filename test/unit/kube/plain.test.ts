import { describe, expect, it } from '@jest/globals';
import { toPlain } from '../../../src/kube/plain.js';

describe('toPlain', () => {
  it('turns Dates from typed APIs into the RFC 3339 strings watches deliver', () => {
    const typed = {
      metadata: { name: 'p', creationTimestamp: new Date('2024-05-01T10:00:00Z'), labels: undefined },
      status: { conditions: [{ type: 'Ready', lastTransitionTime: new Date('2024-05-01T10:00:01.250Z') }] },
    };
    expect(toPlain(typed)).toStrictEqual({
      metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z' },
      status: { conditions: [{ type: 'Ready', lastTransitionTime: '2024-05-01T10:00:01.250Z' }] },
    });
  });

  it('returns a copy; plain input is unchanged in value', () => {
    const raw = { a: [1, 'x', null, { b: true }] };
    const out = toPlain(raw);
    expect(out).toStrictEqual(raw);
    expect(out).not.toBe(raw);
  });
});
