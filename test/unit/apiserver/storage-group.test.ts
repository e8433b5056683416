import { describe, expect, it } from '@jest/globals';
import { toPublicApiVersion, toStorageApiVersion } from '../../../src/apis/storage.js';

describe('storage group apiVersion translation (API mode)', () => {
  it('presents storage objects as apps.openshift.io/v1, managedFields included, and back', () => {
    const stored = { apiVersion: 'apps.dcctl.io/v1', kind: 'DeploymentConfig', metadata: { name: 'a', managedFields: [{ manager: 'm', apiVersion: 'apps.dcctl.io/v1' }, { manager: 'n', apiVersion: 'v1' }] } };
    const pub = toPublicApiVersion(stored, 'apps.dcctl.io');
    expect(pub.apiVersion).toBe('apps.openshift.io/v1');
    expect(pub.metadata.managedFields.map((m) => m.apiVersion)).toEqual(['apps.openshift.io/v1', 'v1']);
    expect(stored.apiVersion).toBe('apps.dcctl.io/v1');
    expect(toStorageApiVersion(pub, 'apps.dcctl.io')).toEqual(stored);
  });

  it('is the identity in CRD mode', () => {
    const obj = { apiVersion: 'apps.openshift.io/v1', metadata: {} };
    expect(toPublicApiVersion(obj, 'apps.openshift.io')).toBe(obj);
    expect(toStorageApiVersion(obj, 'apps.openshift.io')).toBe(obj);
  });
});
