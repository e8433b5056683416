import { describe, expect, it } from '@jest/globals';
import { ApiException, FetchError } from '@kubernetes/client-node';
import { ApiError, isAlreadyExists, isConflict, isGone, isNotFound } from '../../../src/controller/errors.js';
import { toApiError, wrapApi } from '../../../src/kube/errors.js';

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

describe('toApiError', () => {
  it('parses the Status JSON string client-node puts in ApiException.body', () => {
    const e = toApiError(new ApiException(404, 'Unknown API Status Code!', status(404, 'NotFound', 'pods "x" not found'), {}));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 404, reason: 'NotFound', message: 'pods "x" not found' });
    expect(isNotFound(e)).toBe(true);
  });

  it('tells a conflict from AlreadyExists by the Status reason', () => {
    const conflict = toApiError(new ApiException(409, '', status(409, 'Conflict', 'the object has been modified'), {}));
    const exists = toApiError(new ApiException(409, '', status(409, 'AlreadyExists', 'already exists'), {}));
    expect([isConflict(conflict), isAlreadyExists(conflict)]).toEqual([true, false]);
    expect([isConflict(exists), isAlreadyExists(exists)]).toEqual([false, true]);
  });

  it('keeps the causes of an Invalid Status', () => {
    const body = JSON.stringify({ kind: 'Status', code: 422, reason: 'Invalid', message: 'm', details: { causes: [{ field: 'spec.x', message: 'Required value', reason: 'FieldValueRequired' }] } });
    expect(toApiError(new ApiException(422, '', body, {}))).toMatchObject({ causes: [{ field: 'spec.x', message: 'Required value', reason: 'FieldValueRequired' }] });
  });

  it('accepts an object body and a non-JSON body', () => {
    expect(toApiError(new ApiException(422, '', { reason: 'Invalid', message: 'bad' }, {}))).toMatchObject({ code: 422, reason: 'Invalid', message: 'bad' });
    const e = toApiError(new ApiException(404, '', '404 page not found\n', {}));
    expect(e).toMatchObject({ code: 404, reason: undefined, message: '404 page not found' });
  });

  it('keeps the original error as cause', () => {
    const original = new ApiException(500, '', status(500, 'InternalError', 'etcd down'), {});
    expect((toApiError(original) as ApiError).cause).toBe(original);
  });

  it('converts the statusCode errors Watch throws (410 Gone)', () => {
    const err = Object.assign(new Error('Gone'), { statusCode: 410 });
    expect(isGone(toApiError(err))).toBe(true);
  });

  it('leaves network errors and unknown values alone', () => {
    const fe = new FetchError('connect ECONNREFUSED', 'system');
    expect(toApiError(fe)).toBe(fe);
    expect(toApiError('x')).toBe('x');
    const already = new ApiError('m', 409, 'Conflict');
    expect(toApiError(already)).toBe(already);
  });

  it('wrapApi rethrows converted errors', async () => {
    await expect(wrapApi(Promise.reject(new ApiException(403, '', status(403, 'Forbidden', 'no'), {})))).rejects.toMatchObject({ code: 403, reason: 'Forbidden' });
    await expect(wrapApi(Promise.resolve(7))).resolves.toBe(7);
  });
});
