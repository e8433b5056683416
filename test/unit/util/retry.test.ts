import { describe, expect, it } from '@jest/globals';
import { DefaultBackoff, DefaultRetry, retryOnConflict, retryOptions } from '../../../src/util/retry.js';
import { conflict, serverError } from '../../support/fakes.js';

// One conflict retry for the DC controller, the deployer and `rollout undo` (there were two
// implementations with different backoffs and a hand-written loop).
describe('retryOnConflict', () => {
  it('retries conflicts until the attempts are used up, then rethrows the conflict', async () => {
    let calls = 0;
    const err = await retryOnConflict(async () => { calls++; throw conflict('replicationcontrollers', 'x'); }, DefaultBackoff)
      .catch((e: unknown) => e);
    expect(calls).toBe(DefaultBackoff.steps);
    expect((err as { code: number }).code).toBe(409);
  });

  it('returns the value of the first attempt that succeeds', async () => {
    let calls = 0;
    const value = await retryOnConflict(async () => {
      calls++;
      if (calls < 3) throw conflict('deploymentconfigs', 'web');
      return 'stored';
    }, DefaultRetry);
    expect(value).toBe('stored');
    expect(calls).toBe(3);
  });

  it('does not retry other errors', async () => {
    let calls = 0;
    await expect(retryOnConflict(async () => { calls++; throw serverError(); })).rejects.toMatchObject({ code: 500 });
    expect(calls).toBe(1);
  });

  it('maps client-go backoffs onto async-retry without jitter', () => {
    expect(retryOptions(DefaultBackoff)).toMatchObject({ retries: 3, minTimeout: 10, factor: 5, randomize: false });
    expect(retryOptions(DefaultRetry)).toMatchObject({ retries: 4, minTimeout: 10, factor: 1, randomize: false });
  });
});
