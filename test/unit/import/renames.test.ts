import { describe, it, expect } from '@jest/globals';
import { normalizeImageStreamFields, renameDeploymentConfigFields, renameServiceFields, retargetAutoscaler } from '../../../src/import/renames.js';

describe('renames of legacy fields', () => {
  it('Service portalIP becomes clusterIP, unless clusterIP is set', () => {
    const svc = { spec: { portalIP: 'None', ports: [] } };
    expect(renameServiceFields(svc)).toEqual(['renamed spec.portalIP → spec.clusterIP (its name since Kubernetes v1)']);
    expect(svc.spec).toEqual({ clusterIP: 'None', ports: [] });
    const both = { spec: { portalIP: '172.30.0.1', clusterIP: '172.30.0.1' } };
    expect(renameServiceFields(both)).toEqual(['removed spec.portalIP (the legacy name of spec.clusterIP, which is set as well)']);
    expect(renameServiceFields({ spec: {} })).toEqual([]);
  });

  it('HPA: a DeploymentConfig target without an API group (none, or the legacy v1) becomes apps.openshift.io/v1; other targets stay', () => {
    const none = { spec: { scaleTargetRef: { kind: 'DeploymentConfig', name: 'web' }, maxReplicas: 3 } };
    expect(retargetAutoscaler(none)).toEqual(["spec.scaleTargetRef.apiVersion (none) → apps.openshift.io/v1 (OpenShift's autoscaler resolved a DeploymentConfig without an API group; Kubernetes needs the group)"]);
    expect(none.spec.scaleTargetRef).toEqual({ kind: 'DeploymentConfig', name: 'web', apiVersion: 'apps.openshift.io/v1' });
    const legacy = { spec: { scaleTargetRef: { apiVersion: 'v1', kind: 'DeploymentConfig', name: 'web' } } };
    expect(retargetAutoscaler(legacy)).toEqual(["spec.scaleTargetRef.apiVersion v1 → apps.openshift.io/v1 (OpenShift's autoscaler resolved a DeploymentConfig without an API group; Kubernetes needs the group)"]);
    for (const ref of [{ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig' }, { apiVersion: 'v1', kind: 'ReplicationController' }, { kind: 'Deployment' }]) {
      const hpa = { spec: { scaleTargetRef: { ...ref, name: 'web' } } };
      expect(retargetAutoscaler(hpa)).toEqual([]);
      expect(hpa.spec.scaleTargetRef).toEqual({ ...ref, name: 'web' });
    }
    expect(retargetAutoscaler({ spec: 'x' })).toEqual([]);
  });

  it('DC: legacy ImageStream/ImageRepository triggers and updatePercent', () => {
    const dc = {
      spec: {
        strategy: { type: 'Rolling', rollingParams: { updatePercent: 20 } },
        triggers: [
          { type: 'ImageChange', imageChangeParams: { from: { kind: 'ImageRepository', name: 'web' } } },
          { type: 'ImageChange', imageChangeParams: { from: { kind: 'ImageStream', name: 'api:v2' } } },
          { type: 'ImageChange', imageChangeParams: { from: { kind: 'ImageStreamTag', name: 'db:1' } } },
        ],
      },
    };
    expect(renameDeploymentConfigFields(dc)).toEqual([
      'rewrote spec.triggers[0].imageChangeParams.from ImageRepository "web" → ImageStreamTag "web:latest" (as OpenShift\'s decoder converted the legacy kind)',
      'rewrote spec.triggers[1].imageChangeParams.from ImageStream "api:v2" → ImageStreamTag "api:v2" (as OpenShift\'s decoder converted the legacy kind)',
      'rewrote spec.strategy.rollingParams.updatePercent 20 → maxSurge "20%" (as OpenShift converted the removed field)',
    ]);
    expect(dc.spec.triggers.map((t) => t.imageChangeParams.from)).toEqual([
      { kind: 'ImageStreamTag', name: 'web:latest' }, { kind: 'ImageStreamTag', name: 'api:v2' }, { kind: 'ImageStreamTag', name: 'db:1' },
    ]);
    expect(dc.spec.strategy.rollingParams).toEqual({ maxSurge: '20%' });
    // With maxSurge/maxUnavailable set, updatePercent has no meaning left: pruning removes it.
    const set = { spec: { strategy: { rollingParams: { updatePercent: -10, maxSurge: 1 } } } };
    expect(renameDeploymentConfigFields(set)).toEqual([]);
  });

  it('ImageStream: empty referencePolicy type and tags listed twice (the last wins)', () => {
    const is = { spec: { tags: [{ name: 'a', referencePolicy: { type: '' } }, { name: 'b' }, { name: 'a', from: { kind: 'DockerImage', name: 'x:2' } }] } };
    expect(normalizeImageStreamFields(is)).toEqual([
      'removed spec.tags[0] (tag "a" is defined again at spec.tags[2]; OpenShift kept the last one)',
    ]);
    expect(is.spec.tags).toEqual([{ name: 'b' }, { name: 'a', from: { kind: 'DockerImage', name: 'x:2' } }]);
    const empty = { spec: { tags: [{ name: 'a', referencePolicy: { type: '' } }] } };
    expect(normalizeImageStreamFields(empty)).toEqual(['set spec.tags[0].referencePolicy.type "" → Source (OpenShift\'s default for an empty type)']);
    expect(empty.spec.tags[0]?.referencePolicy.type).toBe('Source');
  });
});
