import { describe, expect, it } from '@jest/globals';
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { DeployerPods, DeploymentConfigs, ImageStreams, ReplicationControllers } from '../../../src/apis/resources.js';
import { slimPod, stripManagedFields } from '../../../src/kube/cache-transforms.js';
import { cacheTransformFor } from '../../../src/kube/informer-factory.js';

const managedFields = [{ manager: 'kube-controller-manager', operation: 'Update', fieldsV1: { 'f:status': {} } }];

/** A deployer pod as the API server returns it (plain JSON: timestamps are strings), with what kubelet and admission add. */
function deployerPod(): V1Pod {
  return structuredClone({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-2-deploy',
      namespace: 'ns',
      uid: 'u1',
      resourceVersion: '42',
      creationTimestamp: '2026-01-01T00:00:00Z',
      deletionTimestamp: '2026-01-01T00:05:00Z',
      labels: { 'openshift.io/deployer-pod-for.name': 'web-2' },
      annotations: { 'openshift.io/deployment.name': 'web-2' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'web-2', uid: 'rc1' }],
      managedFields,
    },
    spec: {
      containers: [{ name: 'deployment', image: 'dcctl:local', env: [{ name: 'OPENSHIFT_DEPLOYMENT_NAME', value: 'web-2' }] }],
      serviceAccountName: 'deployer',
      volumes: [{ name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
      nodeName: 'kwok-node-0',
    },
    status: {
      phase: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
      startTime: '2026-01-01T00:00:01Z',
      hostIP: '10.0.0.1',
      podIP: '10.1.0.7',
      conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:09Z' }],
      containerStatuses: [{
        name: 'deployment', image: 'dcctl:local', imageID: 'sha256:abc', containerID: 'containerd://1', ready: false, restartCount: 1,
        state: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:00:09Z', reason: 'Error' } },
        lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:00:05Z' } },
      }],
    },
  }) as unknown as V1Pod;
}

describe('stripManagedFields', () => {
  it('drops managedFields and keeps the rest of the object', () => {
    const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'a', annotations: { k: 'v' }, managedFields }, spec: { replicas: 3 } };
    expect(stripManagedFields(rc)).toEqual({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'a', annotations: { k: 'v' } }, spec: { replicas: 3 } });
  });
});

describe('slimPod', () => {
  it('keeps what the deployer controller reads: metadata without managedFields, phase, reason, message, start time, container states', () => {
    const { managedFields: _dropped, ...metadata } = deployerPod().metadata!;
    expect(slimPod(deployerPod())).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata,
      status: {
        phase: 'Failed',
        reason: 'DeadlineExceeded',
        message: 'Pod was active on the node longer than the specified deadline',
        startTime: '2026-01-01T00:00:01Z',
        containerStatuses: [{
          name: 'deployment', ready: false, restartCount: 1,
          state: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:00:09Z', reason: 'Error' } },
        }],
      },
    } as unknown as V1Pod);
  });

  it('drops the spec and the status fields no controller reads', () => {
    const slim = slimPod(deployerPod());
    expect(slim.spec).toBeUndefined();
    expect(Object.keys(slim.status ?? {}).sort()).toEqual(['containerStatuses', 'message', 'phase', 'reason', 'startTime']);
    expect(Object.keys(slim.status?.containerStatuses?.[0] ?? {}).sort()).toEqual(['name', 'ready', 'restartCount', 'state']);
  });

  it('adds nothing to a pod that has no status yet (just created)', () => {
    const pod: V1Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c' }] } };
    expect(slimPod(pod)).toEqual({ metadata: { name: 'p', namespace: 'ns' } });
  });
});

describe('cacheTransformFor', () => {
  const withFields = (o: KubernetesObject & Record<string, unknown>) => ({ ...o, metadata: { ...o.metadata, managedFields } });

  it('slims pods and only strips managedFields from DCs, RCs and image streams (they are written with PUT from the cache)', () => {
    expect(cacheTransformFor(DeployerPods)(deployerPod())).toEqual(slimPod(deployerPod()));
    const annotations = { 'openshift.io/encoded-deployment-config': '{"kind":"DeploymentConfig"}' };
    for (const resource of [ReplicationControllers, DeploymentConfigs, ImageStreams]) {
      const obj = withFields({ metadata: { name: 'a', annotations }, spec: { replicas: 1, template: { spec: { containers: [] } } }, status: { replicas: 1 } });
      expect(cacheTransformFor(resource)(obj)).toEqual({ metadata: { name: 'a', annotations }, spec: { replicas: 1, template: { spec: { containers: [] } } }, status: { replicas: 1 } });
    }
  });

  it('reads the null fields of a DC\'s or an image stream\'s spec as absent, as OpenShift\'s decoder did (a server-side apply leaves them)', () => {
    const dc = withFields({ metadata: { name: 'a' }, spec: { selector: null, template: { spec: { containers: [{ name: 'c', env: null }], volumes: null } } } });
    const cached = { metadata: { name: 'a' }, spec: { template: { spec: { containers: [{ name: 'c' }] } } } };
    expect(cacheTransformFor(DeploymentConfigs)(structuredClone(dc))).toEqual(cached);
    const stream = withFields({ metadata: { name: 's' }, spec: { dockerImageRepository: null, tags: [{ name: 'a', from: null, annotations: null }] } });
    expect(cacheTransformFor(ImageStreams)(stream)).toEqual({ metadata: { name: 's' }, spec: { tags: [{ name: 'a' }] } });
    const rc = withFields({ metadata: { name: 'r' }, spec: { selector: null } });
    expect(cacheTransformFor(ReplicationControllers)(rc)).toEqual({ metadata: { name: 'r' }, spec: { selector: null } });
    expect(cacheTransformFor(DeploymentConfigs, 'apps.dcctl.io')({ ...structuredClone(dc), apiVersion: 'apps.dcctl.io/v1' })).toEqual({ ...cached, apiVersion: 'apps.openshift.io/v1' });
  });

  it('caches DCs stored in another group as apps.openshift.io/v1', () => {
    const dc = withFields({ apiVersion: 'apps.dcctl.io/v1', kind: 'DeploymentConfig', metadata: { name: 'a' } });
    expect(cacheTransformFor(DeploymentConfigs, 'apps.dcctl.io')(dc)).toEqual({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name: 'a' } });
  });
});
