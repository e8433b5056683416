// The floor controller of bench/bench.mjs (--dc-floor) and bench/dc-floor.mjs: the least a DC
// controller can ask of the plane for a pod-less rollout. It makes only the writes OpenShift's RC
// contract cannot do without (docs/design.md §3.2, §6.8): the RC of each version, created at 0
// replicas in phase New with its encoded config; one merge patch per scaling step (the first also
// moving the phase to Running); the Complete phase; and one DC status write per rollout, at its
// end. No events, no status while the RC is made or rolls out, no cleanup: less than any faithful
// controller writes (ours stores latestVersion with the RC, follows the rollout in the status and
// raises events). It watches DCs and RCs, as any DC controller must. Rolling, maxSurge 1 and
// maxUnavailable 0 for 3 replicas (the bench's 25 %), as the Deployments: one pod up, one down,
// and no updatePeriodSeconds between the steps. It runs in the caller's process; what it costs
// the plane is the part of a pod-less rollout no DC controller avoids, whatever its own CPU.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { applyDefaults } = await import(path.join(repo, 'dist/apps/defaults.js'));
const { makeDeployment } = await import(path.join(repo, 'dist/deploymentconfig/make-deployment.js'));
const { Annotations, Phase } = await import(path.join(repo, 'dist/apis/constants.js'));
const { RestClient, loadRestConfig } = await import(path.join(repo, 'dist/kube/rest.js'));

export const mergePatch = 'application/merge-patch+json';

/**
 * JSON requests (`call`; errors are ApiErrors with the HTTP `code`) and list-then-watch feeds
 * (`watch`) on the plane of `kubeconfig`, through the controller's own REST client (src/kube/rest.ts).
 */
export function planeClient(kubeconfig, userAgent) {
  const rest = new RestClient(loadRestConfig({ kubeconfig }), userAgent);
  const call = (method, p, body, contentType) => rest.request(method, p, { body, contentType });

  /** Lists `p`, then watches it from the list, again from the last event when the watch ends (re-listing when it expired). */
  function watch(p, onEvent) {
    let stopped = false;
    let abort;
    const list = () => call('GET', p).then((l) => {
      for (const o of l.items) onEvent('ADDED', o);
      return open(l.metadata.resourceVersion);
    }, () => { if (!stopped) setTimeout(list, 500); });
    const open = async (from) => {
      if (stopped) return;
      let rv = from;
      const restart = () => { if (!stopped) (rv ? open(rv) : list()); };
      try {
        abort = await rest.watch(p, { allowWatchBookmarks: true, resourceVersion: rv }, (type, obj) => {
          if (type === 'ERROR') {
            // Expired: the next start lists again.
            rv = undefined;
            abort?.abort();
            return;
          }
          rv = obj.metadata.resourceVersion;
          if (type !== 'BOOKMARK') onEvent(type, obj);
        }, restart);
      } catch {
        rv = undefined;
        setTimeout(restart, 500);
      }
    };
    const ready = list();
    return { ready, stop: () => { stopped = true; abort?.abort(); } };
  }

  return { call, watch };
}

export const dcsPath = (ns, name) => `/apis/apps.openshift.io/v1/namespaces/${ns}/deploymentconfigs${name ? `/${name}` : ''}`;
export const rcsPath = (ns, name) => `/api/v1/namespaces/${ns}/replicationcontrollers${name ? `/${name}` : ''}`;

export class FloorController {
  constructor(client, ns) {
    this.client = client;
    this.ns = ns;
    this.dcs = new Map();
    this.rcs = new Map();
    this.waits = new Map();
    this.handledGeneration = new Map();
    this.errors = [];
    this.rcWatch = client.watch(rcsPath(ns), (type, rc) => {
      if (type === 'DELETED') this.rcs.delete(rc.metadata.name);
      else this.rcs.set(rc.metadata.name, rc);
      this.wake(rc.metadata.name);
    });
    this.dcWatch = client.watch(dcsPath(ns), (type, dc) => this.onDc(type, dc));
  }

  async ready() {
    await Promise.all([this.rcWatch.ready, this.dcWatch.ready]);
  }

  onDc(type, dc) {
    const name = dc.metadata.name;
    if (type === 'DELETED') {
      this.dcs.delete(name);
      return;
    }
    this.dcs.set(name, dc);
    if ((this.handledGeneration.get(name) ?? 0) >= dc.metadata.generation) return;
    this.handledGeneration.set(name, dc.metadata.generation);
    this.rollout(dc).catch((err) => this.errors.push(err));
  }

  wake(name) {
    const set = this.waits.get(name);
    if (set) for (const check of [...set]) if (check()) set.delete(check);
  }

  until(name, predicate) {
    return new Promise((resolve) => {
      const check = () => {
        const rc = this.rcs.get(name);
        if (!rc || !predicate(rc)) return false;
        resolve(rc);
        return true;
      };
      if (!check()) (this.waits.get(name) ?? this.waits.set(name, new Set()).get(name)).add(check);
    });
  }

  scale(name, replicas, phase) {
    const body = { spec: { replicas }, ...(phase ? { metadata: { annotations: { [Annotations.Phase]: phase } } } : {}) };
    return this.client.call('PATCH', rcsPath(this.ns, name), body, mergePatch);
  }

  async rollout(written) {
    const name = written.metadata.name;
    const version = (written.status?.latestVersion ?? 0) + 1;
    const dc = applyDefaults(structuredClone(written));
    dc.status = { ...(dc.status ?? {}), latestVersion: version, details: { message: 'config change', causes: [{ type: 'ConfigChange' }] } };
    const rc = makeDeployment(dc);
    await this.client.call('POST', rcsPath(this.ns), rc);
    const want = dc.spec.replicas;
    const available = (k) => this.until(rc.metadata.name, (x) => (x.status?.availableReplicas ?? 0) >= k);
    if (version === 1) {
      await this.scale(rc.metadata.name, want, Phase.Running);
      await available(want);
    } else {
      const previous = `${name}-${version - 1}`;
      for (let up = 1; up <= want; up++) {
        await this.scale(rc.metadata.name, up, up === 1 ? Phase.Running : undefined);
        await available(up);
        await this.scale(previous, want - up);
      }
      await this.until(previous, (x) => (x.status?.replicas ?? 0) === 0);
    }
    await this.client.call('PATCH', rcsPath(this.ns, rc.metadata.name), { metadata: { annotations: { [Annotations.Phase]: Phase.Complete } } }, mergePatch);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (;;) {
      const current = this.dcs.get(name);
      const status = {
        latestVersion: version, observedGeneration: current.metadata.generation, details: dc.status.details,
        replicas: want, updatedReplicas: want, availableReplicas: want, unavailableReplicas: 0, readyReplicas: want,
        conditions: [
          { type: 'Available', status: 'True', lastUpdateTime: now, lastTransitionTime: now, message: 'Deployment config has minimum availability.' },
          { type: 'Progressing', status: 'True', lastUpdateTime: now, lastTransitionTime: now, reason: 'NewReplicationControllerAvailable', message: `replication controller "${rc.metadata.name}" successfully rolled out` },
        ],
      };
      try {
        await this.client.call('PUT', `${dcsPath(this.ns, name)}/status`, { ...current, status });
        return;
      } catch (err) {
        if (err.code !== 409) throw err;
        this.dcs.set(name, await this.client.call('GET', dcsPath(this.ns, name)));
      }
    }
  }

  stop() {
    this.rcWatch.stop();
    this.dcWatch.stop();
  }
}

