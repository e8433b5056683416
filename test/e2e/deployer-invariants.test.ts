/**
 * The invariant watcher used by the deployer e2e tests catches what it claims to catch: a phase
 * moving backwards and two live deployer pods for one DC (objects written by hand, no controller).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InvariantWatcher } from '../support/invariants.js';
import { apis, createNamespace, deleteNamespace, waitFor } from '../support/kube.js';

const { core } = apis();
let ns = '';
let watcher: InvariantWatcher | undefined;

beforeAll(async () => {
  ns = await createNamespace('deployer-invariants');
  watcher = await InvariantWatcher.start(ns);
});
afterAll(async () => {
  await watcher?.stop();
  if (ns) await deleteNamespace(ns);
});

const rc = (name: string, phase: string) => ({
  metadata: { name, labels: { 'openshift.io/deployment-config.name': 'x' }, annotations: { 'openshift.io/deployment-config.name': 'x', 'openshift.io/deployment.phase': phase } },
  spec: { replicas: 0, selector: { app: name }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'registry.local/x:1' }] } } },
});

const deployerPod = (rcName: string) => ({
  metadata: {
    name: `${rcName}-deploy`,
    labels: { 'openshift.io/deployer-pod-for.name': rcName },
    annotations: { 'openshift.io/deployment.name': rcName, 'openshift.io/deployment-config.name': 'x' },
  },
  // Affinity to no node: the pods stay Pending, which is unterminated, and no process runs.
  spec: {
    restartPolicy: 'Never',
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'no-such-node', operator: 'Exists' }] }] } } },
    containers: [{ name: 'deployment', image: 'registry.local/deployer:1', command: ['sleep', '1'] }],
  },
});

describe('InvariantWatcher', () => {
  it('reports a phase moving backwards and out of a terminal phase', async () => {
    await core.createNamespacedReplicationController({ namespace: ns, body: rc('x-1', 'Running') });
    await core.patchNamespacedReplicationController({ namespace: ns, name: 'x-1', body: [{ op: 'replace', path: '/metadata/annotations/openshift.io~1deployment.phase', value: 'Complete' }] });
    await core.patchNamespacedReplicationController({ namespace: ns, name: 'x-1', body: [{ op: 'replace', path: '/metadata/annotations/openshift.io~1deployment.phase', value: 'Pending' }] });
    await waitFor('a phase violation', () => watcher?.violations.some((v) => v.includes('x-1')));
    expect(watcher?.violations).toContain('RC x-1 phase moved backwards or out of a terminal phase: Complete -> Pending');
  });

  it('reports two unterminated deployer pods of one DC', async () => {
    await core.createNamespacedPod({ namespace: ns, body: deployerPod('x-1') });
    await core.createNamespacedPod({ namespace: ns, body: deployerPod('x-2') });
    await waitFor('a deployer pod violation', () => watcher?.violations.some((v) => v.includes('deployer pods')));
    expect(watcher?.violations.find((v) => v.includes('deployer pods'))).toMatch(/^DC x has 2 unterminated deployer pods: x-1-deploy\(Pending\), x-2-deploy\(Pending\)$/);
  });
});
