import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { copyForTarget, MigratedFromUid, ownerIndex, skipReason, statusForCopy } from '../../../src/apiserver/migrate.js';

describe('migrate-storage helpers', () => {
  it('skips a DC being deleted or in a terminating namespace, saying which', () => {
    const dc = (ns: string, deletionTimestamp?: string) => ({ metadata: { name: 'web', namespace: ns, ...(deletionTimestamp ? { deletionTimestamp } : {}) }, spec: {} }) as unknown as DeploymentConfig;
    expect(skipReason(dc('a'), new Set(['b']))).toBeUndefined();
    expect(skipReason(dc('b'), new Set(['b']))).toBe('namespace "b" is being deleted');
    expect(skipReason(dc('a', '2026-12-01T00:00:00Z'), new Set())).toBe('it is being deleted (since 2026-12-01T00:00:00Z)');
  });

  it('copies spec, labels and annotations, records the source uid, drops server-written metadata', () => {
    const dc = {
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
      metadata: { name: 'web', namespace: 'a', uid: 'u1', resourceVersion: '9', generation: 4, creationTimestamp: 'x', labels: { l: '1' }, annotations: { a: '1' }, managedFields: [{}] },
      spec: { replicas: 2, selector: null, template: { spec: { volumes: null } } }, status: { latestVersion: 3 },
    } as unknown as DeploymentConfig;
    // Null fields a server-side apply left in the storage: the copy is the DC as its readers saw it.
    expect(copyForTarget(dc, 'apps.dcctl.io')).toEqual({
      apiVersion: 'apps.dcctl.io/v1', kind: 'DeploymentConfig',
      metadata: { name: 'web', namespace: 'a', labels: { l: '1' }, annotations: { a: '1', [MigratedFromUid]: 'u1' } },
      spec: { replicas: 2, template: { spec: {} } },
    });
  });

  it('gives the copy the source\'s status with observedGeneration counted in the copy\'s generations (the schema refuses a lower one, so the source\'s count stalled every status write)', () => {
    const dc = (generation: number, observedGeneration?: number) => ({
      metadata: { name: 'web', generation }, spec: {}, status: { latestVersion: 7, ...(observedGeneration !== undefined ? { observedGeneration } : {}) },
    }) as unknown as DeploymentConfig;
    expect(statusForCopy(dc(9, 9), 1)).toEqual({ latestVersion: 7, observedGeneration: 1 });
    expect(statusForCopy(dc(9, 8), 1)).toEqual({ latestVersion: 7, observedGeneration: 0 });
    expect(statusForCopy(dc(9), 1)).toEqual({ latestVersion: 7 });
  });

  it('finds only the controlling DeploymentConfig reference with that uid', () => {
    const rc = { metadata: { ownerReferences: [
      { apiVersion: 'v1', kind: 'Other', name: 'x', uid: 'u1', controller: false },
      { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'web', uid: 'u1', controller: true },
    ] } } as V1ReplicationController;
    expect(ownerIndex(rc, 'u1')).toBe(1);
    expect(ownerIndex(rc, 'u2')).toBe(-1);
  });
});
