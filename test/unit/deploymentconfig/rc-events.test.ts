import { describe, expect, it } from '@jest/globals';
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../../../src/apis/constants.js';
import { rcChangeMattersToDeployer } from '../../../src/deployer-controller/controller.js';
import { rcChangeToDc } from '../../../src/deploymentconfig/controller.js';

const base = (): V1ReplicationController => ({
  metadata: {
    name: 'app-1', namespace: 'ns', uid: 'u', resourceVersion: '1', labels: { 'openshift.io/deployment-config.name': 'app' },
    annotations: { [Annotations.Phase]: 'Running', [Annotations.DeploymentConfig]: 'app', [Annotations.LatestVersion]: '1' },
  },
  spec: { replicas: 3, template: { spec: { containers: [{ name: 'web', image: 'img:1' }] } } },
  status: { replicas: 3, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 3, observedGeneration: 1 },
});

const changed = (mutate: (rc: V1ReplicationController) => void): boolean => {
  const next = structuredClone(base());
  next.metadata!.resourceVersion = '2';
  mutate(next);
  return rcChangeToDc(base(), next) !== 'none';
};

describe('rcChangeToDc: whether an RC update matters to its DC at all', () => {
  it('ignores RC writes a DC sync cannot act on', () => {
    expect(changed((rc) => { rc.status!.observedGeneration = 2; })).toBe(false);
    expect(changed((rc) => { rc.status!.fullyLabeledReplicas = 2; })).toBe(false);
    expect(changed((rc) => { rc.metadata!.annotations![Annotations.UpdateSourceId] = 'app-0:uid'; })).toBe(false);
    expect(changed((rc) => { rc.metadata!.annotations![Annotations.DeployerPodStartedAt] = 'now'; })).toBe(false);
  });

  it('passes every change the DC status, conditions, claims or triggers depend on', () => {
    expect(changed((rc) => { rc.metadata!.annotations![Annotations.Phase] = 'Complete'; })).toBe(true);
    expect(changed((rc) => { rc.metadata!.annotations![Annotations.Cancelled] = 'true'; })).toBe(true);
    expect(changed((rc) => { rc.metadata!.labels = {}; })).toBe(true);
    expect(changed((rc) => { rc.metadata!.ownerReferences = [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'x' }]; })).toBe(true);
    expect(changed((rc) => { rc.metadata!.deletionTimestamp = new Date(0); })).toBe(true);
    expect(changed((rc) => { rc.spec!.replicas = 4; })).toBe(true);
    expect(changed((rc) => { rc.status!.availableReplicas = 3; })).toBe(true);
    expect(changed((rc) => { rc.status!.readyReplicas = 3; })).toBe(true);
    expect(changed((rc) => { rc.status!.replicas = 4; })).toBe(true);
    expect(changed((rc) => { rc.spec!.template!.spec!.containers[0]!.image = 'img:2'; })).toBe(true);
  });
});

describe('rcChangeMattersToDeployer', () => {
  const deployerChanged = (mutate: (rc: V1ReplicationController) => void): boolean => {
    const next = structuredClone(base());
    next.metadata!.resourceVersion = '2';
    mutate(next);
    return rcChangeMattersToDeployer(base(), next);
  };

  it('ignores the RC manager status writes and passes annotation, replicas and deletion changes', () => {
    expect(deployerChanged((rc) => { rc.status!.readyReplicas = 3; rc.status!.observedGeneration = 2; })).toBe(false);
    expect(deployerChanged((rc) => { rc.metadata!.annotations![Annotations.Cancelled] = 'true'; })).toBe(true);
    expect(deployerChanged((rc) => { delete rc.metadata!.annotations![Annotations.Phase]; })).toBe(true);
    expect(deployerChanged((rc) => { rc.spec!.replicas = 0; })).toBe(true);
    expect(deployerChanged((rc) => { rc.metadata!.deletionTimestamp = new Date(0); })).toBe(true);
  });
});
