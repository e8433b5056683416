import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import path from 'node:path';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { quantitiesAsOpenShiftStoredThem } from '../../src/apis/quantities.js';
import type { DeploymentConfig } from '../../src/apis/deploymentconfig.js';
import { apis, createNamespace, deleteNamespace, kubectl, repoDir } from '../support/kube.js';

// crds/optional/deploymentconfig-quantities-policy.yaml (Kubernetes 1.36+, applied by the global
// setup): OpenShift's API took a Quantity written as a fractional number (`cpu: 0.5`), which the
// CRD's schema alone refuses; the policy stores each as its string, in every write.

const group = 'apps.openshift.io';
const version = 'v1';
const plural = 'deploymentconfigs';
const { custom } = apis();
let namespace = '';

const divisor = (d: number) => ({ resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: d } });
/** A DC with a fractional number at every kind of place a DC holds Quantities, and integers beside them. */
function everywhere(name: string): DeploymentConfig {
  const hook = () => ({ failurePolicy: 'Abort', execNewPod: { containerName: 'app', command: ['true'], env: [{ name: 'H', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: 0.001 } } }] } });
  return {
    apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name, namespace },
    spec: {
      replicas: 1, selector: { app: name },
      strategy: { type: 'Recreate', resources: { limits: { cpu: 0.2, memory: 1024 }, requests: { cpu: 0.1 } }, recreateParams: { pre: hook(), mid: hook(), post: hook() } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          overhead: { cpu: 0.05 },
          containers: [
            { name: 'side', image: 'busybox', resources: { limits: { cpu: 1 } } },
            { name: 'app', image: 'busybox', env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: 0.5 } } }], resources: { limits: { cpu: 0.5, 'example.com/gpu': 1 }, requests: { cpu: 0.25, memory: 0.5 } } },
          ],
          initContainers: [{ name: 'init', image: 'busybox', resources: { limits: { cpu: 1.5 } } }],
          volumes: [
            { name: 'scratch', emptyDir: { sizeLimit: 1.5 } },
            { name: 'down', downwardAPI: { items: [{ path: 'cpu', ...divisor(0.01) }] } },
            { name: 'proj', projected: { sources: [{ downwardAPI: { items: [{ path: 'cpu', ...divisor(0.1) }] } }] } },
            { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: 1.5 } } } } } },
          ],
        },
      },
    },
  } as unknown as DeploymentConfig;
}
/** The Quantities of `dc` that are fractional numbers, as `path=text`. */
const fractional = (dc: unknown) => quantitiesAsOpenShiftStoredThem(structuredClone(dc)).map((q) => `${q.path}=${q.text}`).sort();

beforeAll(async () => {
  kubectl(['apply', '--server-side', '--force-conflicts', '-f', path.join(repoDir, 'crds/optional/deploymentconfig-quantities-policy.yaml')]);
  namespace = await createNamespace('crd-quantities');
}, 120_000);
afterAll(async () => {
  if (namespace) await deleteNamespace(namespace);
});

describe('a fractional number at a Quantity, with the optional policy (Kubernetes 1.36+)', () => {
  it('is stored as its string wherever a DC holds Quantities, and integers stay numbers', async () => {
    const sent = everywhere('everywhere');
    const expected = fractional(sent);
    expect(expected.length).toBeGreaterThanOrEqual(15);
    const created = await custom.createNamespacedCustomObject({ group, version, namespace, plural, body: sent }) as DeploymentConfig;
    expect(fractional(created)).toEqual([]);
    // Each one stored as exactly the string dcctl import and API mode's front would have written.
    const asStrings = structuredClone(sent);
    quantitiesAsOpenShiftStoredThem(asStrings);
    expect(created.spec).toEqual({ ...asStrings.spec, revisionHistoryLimit: 10, triggers: [{ type: 'ConfigChange' }], strategy: { ...asStrings.spec.strategy, activeDeadlineSeconds: 21600, recreateParams: { ...asStrings.spec.strategy!.recreateParams, timeoutSeconds: 600 } } });
    const app = created.spec.template!.spec!.containers[1]!;
    expect(app.resources).toEqual({ limits: { cpu: '0.5', 'example.com/gpu': 1 }, requests: { cpu: '0.25', memory: '0.5' } });
  });

  it('is stored as its string by a merge patch and by a server-side apply too', async () => {
    const patched = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'everywhere', body: { spec: { strategy: { resources: { limits: { cpu: 0.3 } } } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    ) as DeploymentConfig;
    expect(patched.spec.strategy?.resources?.limits).toEqual({ cpu: '0.3', memory: 1024 });
    const applied = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'applied', body: everywhere('applied'), fieldManager: 'gitops' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as DeploymentConfig;
    expect(fractional(applied)).toEqual([]);
    expect(applied.spec.template!.spec!.volumes![0]).toEqual({ name: 'scratch', emptyDir: { sizeLimit: '1.5' } });
  });
});

describe('a null value in a map of strings, with the optional policy (Kubernetes 1.36+)', () => {
  // Every kind of place a DC holds a map of strings (src/apis/string-maps.generated.ts), each with a null value.
  const withNulls = (name: string) => ({
    apiVersion: `${group}/${version}`, kind: 'DeploymentConfig', metadata: { name, namespace },
    spec: {
      replicas: 1, selector: { app: name, tier: null },
      strategy: { type: 'Rolling', labels: { owner: null }, annotations: { note: null } },
      template: {
        metadata: { labels: { app: name, tier: null }, annotations: { commit: null } },
        spec: {
          nodeSelector: { disk: null },
          containers: [{ name: 'c', image: 'busybox' }],
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: name, tier: null } } }] } },
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { tier: null } } }],
          volumes: [{ name: 'v', csi: { driver: 'example.com', volumeAttributes: { pool: null } } }],
        },
      },
    },
  });
  const expected = (name: string) => ({
    selector: { app: name, tier: '' },
    strategy: { labels: { owner: '' }, annotations: { note: '' } },
    template: {
      metadata: { labels: { app: name, tier: '' }, annotations: { commit: '' } },
      spec: {
        nodeSelector: { disk: '' },
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: name, tier: '' } } }] } },
        topologySpreadConstraints: [{ labelSelector: { matchLabels: { tier: '' } } }],
        volumes: [{ csi: { volumeAttributes: { pool: '' } } }],
      },
    },
  });
  it('is stored as "", as OpenShift stored it, by a create and by a server-side apply', async () => {
    const created = await custom.createNamespacedCustomObject({ group, version, namespace, plural, body: withNulls('nulls-created') }) as DeploymentConfig;
    expect(created.spec).toMatchObject(expected('nulls-created'));
    const applied = await custom.patchNamespacedCustomObject(
      { group, version, namespace, plural, name: 'nulls-applied', body: withNulls('nulls-applied'), fieldManager: 'helm' },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    ) as DeploymentConfig;
    expect(applied.spec).toMatchObject(expected('nulls-applied'));
  });
});
