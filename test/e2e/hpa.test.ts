/**
 * A real HorizontalPodAutoscaler (kube-controller-manager's HPA controller, enabled on the local
 * plane) scales a DeploymentConfig through its scale subresource, and the DC controller follows
 * the new spec.replicas without fighting it, also across a new rollout.
 *
 * The difference from production: the plane serves no metrics API (no metrics-server; kwok pods
 * use no CPU), so the HPA here moves replicas through its minReplicas/maxReplicas bounds — the
 * branch of the HPA's reconcile that needs no metrics — rather than through a CPU target. Both
 * branches end in the same scale-subresource GET and UPDATE of the DC, which is what this proves;
 * the metric arithmetic itself is the HPA's own. Needs `npm run build`.
 */
import { describe, expect, it } from '@jest/globals';
import { dcManifest, useDeployerTestEnv } from '../support/dc.js';
import { apis, kubectl, waitFor } from '../support/kube.js';

const env = useDeployerTestEnv('hpa');

const hpa = (min: number, max: number) => `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps.openshift.io/v1, kind: DeploymentConfig, name: web}
  minReplicas: ${min}
  maxReplicas: ${max}
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

describe('HorizontalPodAutoscaler on a DeploymentConfig (e2e)', () => {
  it('scales the DC through the scale subresource; the DC controller applies it and keeps it across a rollout', async () => {
    const { dc, ns } = env;
    const { core } = apis();
    await dc.create(dcManifest({ replicas: 1 }));
    await dc.waitForPhase('web-1', 'Complete');

    kubectl(['apply', '-n', ns, '-f', '-'], hpa(3, 5));
    await waitFor('the HPA to raise the DC to 3 replicas', async () => (await dc.get()).spec.replicas === 3, { timeoutMs: 60_000 });
    await waitFor('3 ready pods of web-1', async () => (await dc.readyPods('app=web')).length === 3 && (await dc.rc('web-1'))?.spec?.replicas === 3, { timeoutMs: 60_000 });
    const rescale = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=web,involvedObject.kind=HorizontalPodAutoscaler' })).items;
    expect(rescale.map((e) => `${e.reason}: ${e.message}`)).toContain('SuccessfulRescale: New size: 3; reason: Current number of replicas below Spec.MinReplicas');

    // No fight: several HPA periods (2 s on the plane) later, nobody has moved the count.
    const generation = (await dc.get()).metadata.generation;
    await new Promise((r) => setTimeout(r, 8000));
    expect((await dc.get()).spec.replicas).toBe(3);
    expect((await dc.get()).metadata.generation).toBe(generation);
    expect((await dc.rc('web-1'))?.spec?.replicas).toBe(3);

    // A new rollout starts at the HPA's count and leaves the DC at it.
    dc.setImage('registry.local/web:2');
    await dc.waitForPhase('web-2', 'Complete', 120_000);
    await dc.waitForOnlyActive(2, 3);
    expect((await dc.get()).spec.replicas).toBe(3);

    // Lowering the HPA's maximum scales the DC down the same way.
    kubectl(['apply', '-n', ns, '-f', '-'], hpa(1, 2));
    await waitFor('the HPA to lower the DC to 2 replicas', async () => (await dc.get()).spec.replicas === 2, { timeoutMs: 60_000 });
    await waitFor('web-2 at 2 replicas', async () => (await dc.rc('web-2'))?.spec?.replicas === 2, { timeoutMs: 60_000 });
    const status = JSON.parse(kubectl(['get', 'hpa', 'web', '-n', ns, '-o', 'json'])) as { status?: { currentReplicas?: number; desiredReplicas?: number } };
    expect(status.status?.desiredReplicas).toBe(2);
  });
});
