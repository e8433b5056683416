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
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { applyDefaults } = await import(path.join(repo, 'dist/apps/defaults.js'));
const { makeDeployment } = await import(path.join(repo, 'dist/deploymentconfig/make-deployment.js'));
const { Annotations, Phase } = await import(path.join(repo, 'dist/apis/constants.js'));

export const mergePatch = 'application/merge-patch+json';

/**
 * JSON requests and watches on the plane at `server` with the TLS options `tls` (bench/lib.mjs
 * localPlane), over one keep-alive pool; `close` ends the pool.
 */
export function planeClient(server, tls, userAgent) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 32, ...tls });

  function call(method, p, body, contentType = 'application/json') {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers = { accept: 'application/json', 'user-agent': userAgent, ...(data ? { 'content-type': contentType, 'content-length': Buffer.byteLength(data) } : {}) };
      const req = https.request({ agent, hostname: server.hostname, port: server.port, method, path: p, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if ((res.statusCode ?? 0) < 400) return resolve(text ? JSON.parse(text) : undefined);
          const err = new Error(`${method} ${p}: ${res.statusCode} ${text.slice(0, 300)}`);
          err.code = res.statusCode;
          reject(err);
        });
      });
      req.on('error', reject);
      if (data) req.write(data);
      req.end();
    });
  }

  /** Lists `p`, then watches it from the list (re-listing after an expired watch); returns a stop function. */
  function watch(p, onEvent) {
    let stopped = false;
    let req;
    const open = (rv) => {
      if (stopped) return;
      const query = `watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`;
      req = https.request({ ...tls, hostname: server.hostname, port: server.port, path: `${p}?${query}`, headers: { accept: 'application/json', 'user-agent': userAgent } }, (res) => {
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffered += chunk;
          let nl;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (!line) continue;
            const ev = JSON.parse(line);
            if (ev.type === 'ERROR') {
              res.destroy();
              rv = undefined;
              return;
            }
            rv = ev.object.metadata.resourceVersion;
            if (ev.type !== 'BOOKMARK') onEvent(ev.type, ev.object);
          }
        });
        res.on('close', () => { if (!stopped) (rv ? open(rv) : list()); });
      });
      req.on('error', () => undefined);
      req.end();
    };
    const list = () => call('GET', p).then((l) => {
      for (const o of l.items) onEvent('ADDED', o);
      open(l.metadata.resourceVersion);
    }, () => { if (!stopped) setTimeout(list, 500); });
    const ready = list();
    return { ready, stop: () => { stopped = true; req?.destroy(); } };
  }

  return { call, watch, close: () => agent.destroy() };
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

