// The objects the benchmarks roll out (bench/bench.mjs and bench/dc-floor.mjs): N DCs or
// Deployments of 3 replicas, Rolling/RollingUpdate with the same surge and unavailability, and
// when each counts as rolled out.
export const replicas = 3;
export const rolling = { maxSurge: '25%', maxUnavailable: '25%' };
export const podTemplate = (name, rev) => ({
  metadata: { labels: { app: name } },
  spec: {
    terminationGracePeriodSeconds: 0,
    containers: [{ name: 'web', image: 'registry.local/web:1', env: [{ name: 'REV', value: String(rev) }] }],
  },
});

export function dcManifest(name) {
  return {
    apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', metadata: { name },
    spec: {
      replicas, selector: { app: name }, triggers: [{ type: 'ConfigChange' }],
      // OpenShift's defaults: 1 s interval/period, 600 s timeout; same surge/unavailable as the Deployments.
      strategy: { type: 'Rolling', rollingParams: { ...rolling, intervalSeconds: 1, updatePeriodSeconds: 1, timeoutSeconds: 600 } },
      template: podTemplate(name, 1),
    },
  };
}

export function deploymentManifest(name) {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: rolling },
      template: podTemplate(name, 1),
    },
  };
}

/** Rolled out as `kubectl rollout status` would say it: for a DC, its `latestVersion` RC is Complete. */
export function dcDone(dc, version) {
  const st = dc.status ?? {};
  if ((st.latestVersion ?? 0) < version) return false;
  const p = (st.conditions ?? []).find((c) => c.type === 'Progressing');
  return p?.reason === 'NewReplicationControllerAvailable' && p.message?.includes(`"${dc.metadata.name}-${version}"`)
    && st.updatedReplicas === replicas && st.availableReplicas === replicas && st.replicas === replicas;
}

export function deploymentDone(d, generation) {
  const st = d.status ?? {};
  if ((st.observedGeneration ?? 0) < generation) return false;
  const p = (st.conditions ?? []).find((c) => c.type === 'Progressing');
  return p?.reason === 'NewReplicaSetAvailable' && st.updatedReplicas === replicas && st.availableReplicas === replicas
    && st.replicas === replicas && !(st.unavailableReplicas > 0);
}

