/**
 * What admission cannot see: RC annotations corrupted after the fact (by hand, by a script, by a
 * bad restore). Each case must leave the controller running and serving every other DC; an
 * unreadable encoded config must show up as a Warning event and a ReplicaFailure condition.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apis, createNamespace, deleteNamespace, kubectl, startController, waitFor, type ControllerProcess } from '../support/kube.js';

const { core, custom } = apis();
const group = 'apps.openshift.io';
let ns: string;
let controller: ControllerProcess;

const dc = (name: string, replicas = 1) => ({
  apiVersion: `${group}/v1`,
  kind: 'DeploymentConfig',
  metadata: { name },
  spec: {
    replicas,
    selector: { app: name },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'registry.local/app:1' }] } },
  },
});
const getDc = (name: string) => custom.getNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', name });
const phaseOf = async (rc: string) => (await core.readNamespacedReplicationController({ name: rc, namespace: ns })).metadata?.annotations?.['openshift.io/deployment.phase'];
const annotate = (rc: string, kv: string) => kubectl(['-n', ns, 'annotate', '--overwrite', `rc/${rc}`, kv]);

/** The corpus: annotation values a person or a broken tool could leave on a DC's RC. */
const corpus: { name: string; value: (encoded: string) => string; key: string; readable: boolean }[] = [
  { name: 'truncated encoded config', key: 'openshift.io/encoded-deployment-config', value: (e) => e.slice(0, Math.floor(e.length / 2)), readable: false },
  { name: 'encoded config that is not JSON', key: 'openshift.io/encoded-deployment-config', value: () => 'not json at all', readable: false },
  { name: 'encoded config of another kind', key: 'openshift.io/encoded-deployment-config', value: () => '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}', readable: false },
  { name: 'encoded config JSON null', key: 'openshift.io/encoded-deployment-config', value: () => 'null', readable: false },
  // Overflowed the stack in the walks over the decoded config: the DC stalled without a condition.
  { name: 'encoded config nested 30000 levels deep', key: 'openshift.io/encoded-deployment-config', value: (e) => e.replace('"template":{', `"template":{"x":${'['.repeat(30_000)}${']'.repeat(30_000)},`), readable: false },
  { name: 'non-integer version', key: 'openshift.io/deployment-config.latest-version', value: () => 'one', readable: true },
  { name: 'negative version', key: 'openshift.io/deployment-config.latest-version', value: () => '-7', readable: true },
  { name: 'huge version', key: 'openshift.io/deployment-config.latest-version', value: () => '99999999999999999999999', readable: true },
  { name: 'unknown phase', key: 'openshift.io/deployment.phase', value: () => 'Exploded', readable: true },
  { name: 'non-integer desired replicas', key: 'kubectl.kubernetes.io/desired-replicas', value: () => 'many', readable: true },
  { name: 'cancelled with an odd value', key: 'openshift.io/deployment.cancelled', value: () => 'maybe', readable: true },
];

beforeAll(async () => {
  ns = await createNamespace('badrc');
  controller = startController(ns);
  await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', body: dc('healthy') });
  await waitFor('healthy-1 Complete', async () => (await phaseOf('healthy-1')) === 'Complete');
});
afterAll(async () => {
  await controller?.stop();
  await deleteNamespace(ns);
});

describe('corrupted RC annotations', () => {
  let replicas = 1;
  it.each(corpus)('$name: the controller keeps running and serves other DCs', async ({ name, key, value, readable }) => {
    const victim = `v-${corpus.findIndex((c) => c.name === name)}`;
    await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', body: dc(victim) });
    await waitFor(`${victim}-1 Complete`, async () => (await phaseOf(`${victim}-1`)) === 'Complete');
    const rc = await core.readNamespacedReplicationController({ name: `${victim}-1`, namespace: ns });
    annotate(`${victim}-1`, `${key}=${value(rc.metadata?.annotations?.['openshift.io/encoded-deployment-config'] ?? '')}`);
    // Make the victim's controller look at it: scale it (a spec change, no new rollout).
    kubectl(['-n', ns, 'scale', `dc/${victim}`, '--replicas=2']);

    if (!readable) {
      const cond = await waitFor(`${victim} ReplicaFailure condition`, async () => {
        const d = await getDc(victim);
        return (d.status?.conditions as { type: string; status: string; reason: string; message: string }[] | undefined)
          ?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
      });
      expect(cond.reason).toBe('InvalidReplicationController');
      expect(cond.message).toContain(`replication controller "${victim}-1" cannot be read`);
      const events = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: `involvedObject.name=${victim}` })).items;
      expect(events.some((e) => e.type === 'Warning' && e.reason === 'InvalidReplicationController')).toBe(true);
    }

    // Every other DC is still served: scaling the healthy DC reaches its RC.
    replicas += 1;
    kubectl(['-n', ns, 'scale', 'dc/healthy', `--replicas=${replicas}`]);
    await waitFor(`healthy-1 scaled to ${replicas}`, async () =>
      (await core.readNamespacedReplicationController({ name: 'healthy-1', namespace: ns })).spec?.replicas === replicas);
    expect(controller.child.exitCode).toBeNull();
    expect(controller.output()).not.toMatch(/TypeError|ReferenceError|Unhandled|uncaught/i);
  });

  it('clears the condition once the RC is readable again', async () => {
    const victim = 'v-0';
    const good = JSON.stringify({ ...dc(victim), metadata: { name: victim, namespace: ns } });
    annotate(`${victim}-1`, `openshift.io/encoded-deployment-config=${good}`);
    await waitFor('ReplicaFailure cleared', async () => {
      const d = await getDc(victim);
      return !(d.status?.conditions as { type: string }[] | undefined)?.some((c) => c.type === 'ReplicaFailure');
    });
  });
});

/**
 * Issue 14 item 1: `latest-version=2147483647` on `<dc>-1` made the controller step
 * status.latestVersion up once per sync (~35 status writes/s measured). The version is now read
 * from the RC's immutable name: the forged value costs one status write (the condition), nothing
 * else, and setting it back costs one more.
 */
describe('forged latest-version annotation (issue 14 item 1)', () => {
  /** Counts MODIFIED watch events of one DC while `during` runs, then for `settleMs` more. */
  async function countDcWrites(name: string, during: () => Promise<void>, settleMs: number): Promise<number> {
    const { Watch } = await import('@kubernetes/client-node');
    let modified = 0;
    const req = await new Watch(apis().kc).watch(`/apis/${group}/v1/namespaces/${ns}/deploymentconfigs`,
      { fieldSelector: `metadata.name=${name}` },
      (type) => { if (type === 'MODIFIED') modified += 1; },
      () => undefined);
    try {
      await new Promise((r) => setTimeout(r, 500)); // the initial ADDED has arrived
      modified = 0;
      await during();
      await new Promise((r) => setTimeout(r, settleMs));
      return modified;
    } finally {
      req.abort();
    }
  }

  it.each(['2147483647', '99'])('latest-version=%s on <dc>-1: one status write, latestVersion kept, condition and event, nothing rolled out', async (forged) => {
    const victim = `forged-${forged.length}`;
    await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', body: dc(victim) });
    await waitFor(`${victim}-1 Complete`, async () => (await phaseOf(`${victim}-1`)) === 'Complete');
    await waitFor(`${victim} status settled`, async () => ((await getDc(victim)).status?.conditions as { reason?: string }[] | undefined)
      ?.some((c) => c.reason === 'NewReplicationControllerAvailable'));

    const writes = await countDcWrites(victim, async () => { annotate(`${victim}-1`, `openshift.io/deployment-config.latest-version=${forged}`); }, 5000);
    const d = await getDc(victim);
    expect(writes).toBeLessThanOrEqual(1);
    expect(d.status?.latestVersion).toBe(1);
    const cond = (d.status?.conditions as { type: string; status: string; reason: string; message: string }[]).find((c) => c.type === 'ReplicaFailure');
    expect(cond).toMatchObject({ status: 'True', reason: 'InvalidReplicationController' });
    expect(cond?.message).toContain(`"${victim}-1" has annotation openshift.io/deployment-config.latest-version="${forged}", which disagrees with the version in its name`);
    const events = (await core.listNamespacedEvent({ namespace: ns, fieldSelector: `involvedObject.name=${victim}` })).items;
    expect(events.filter((e) => e.type === 'Warning' && e.reason === 'InvalidReplicationController')).toHaveLength(1);

    const writesBack = await countDcWrites(victim, async () => { annotate(`${victim}-1`, 'openshift.io/deployment-config.latest-version=1'); }, 3000);
    expect(writesBack).toBeLessThanOrEqual(1);
    const after = await getDc(victim);
    expect(after.status?.latestVersion).toBe(1);
    expect((after.status?.conditions as { type: string }[]).some((c) => c.type === 'ReplicaFailure')).toBe(false);
    expect((await core.listNamespacedReplicationController({ namespace: ns, labelSelector: `openshift.io/deployment-config.name=${victim}` })).items.map((rc) => rc.metadata?.name))
      .toEqual([`${victim}-1`]);
  });
});

/**
 * Issue 14 sweep: the encoded config is an RC annotation anyone who may patch RCs in the
 * namespace rewrites (every deployer and hook pod can), and its namespace and name used to
 * address the controller's events. A forged config made the controller, with its cluster-wide
 * right to create events, write events into any other namespace about any object there.
 */
describe('forged encoded config naming another namespace (issue 14 sweep)', () => {
  let victimNs: string;
  beforeAll(async () => { victimNs = await createNamespace('badrc-victim'); });
  afterAll(async () => { await deleteNamespace(victimNs); });

  it('the controller\'s rollout events stay in the RC\'s namespace, on the RC', async () => {
    const slow = dc('spoof');
    (slow.spec as Record<string, unknown>).strategy = {
      type: 'Recreate',
      recreateParams: { pre: { failurePolicy: 'Abort', execNewPod: { containerName: 'app', command: ['/bin/sh', '-c', 'sleep 60'] } } },
    };
    await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', body: slow });
    await waitFor('spoof-1 Running', async () => (await phaseOf('spoof-1')) === 'Running', { timeoutMs: 60_000 });
    const rc = await core.readNamespacedReplicationController({ name: 'spoof-1', namespace: ns });
    const forged = JSON.parse(rc.metadata!.annotations!['openshift.io/encoded-deployment-config']!) as { metadata: Record<string, unknown> };
    forged.metadata = { ...forged.metadata, namespace: victimNs, name: 'payroll' };
    annotate('spoof-1', `openshift.io/encoded-deployment-config=${JSON.stringify(forged)}`);
    // Cancelling makes the deployer controller report on the rollout (RolloutCancelled).
    annotate('spoof-1', 'openshift.io/deployment.cancelled=true');

    const cancelled = await waitFor('RolloutCancelled on spoof-1', async () => (await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=spoof-1' }))
      .items.find((e) => e.reason === 'RolloutCancelled'));
    expect(cancelled.involvedObject).toMatchObject({ kind: 'ReplicationController', namespace: ns, name: 'spoof-1' });
    expect((await core.listNamespacedEvent({ namespace: victimNs })).items.map((e) => `${e.reason} ${e.involvedObject.name}`)).toEqual([]);
  }, 120_000);
});

/**
 * Forged values are quoted into the InvalidReplicationController condition, which is stored in the
 * DC's status and from there in the next RC's encoded config: 100 KB of `"` on two RCs, doubled by
 * quoting, pushed the next RC past the API server's 256 KiB annotation limit.
 */
describe('forged values of 100 KB on two RCs', () => {
  it('the condition stays short and the next version is still created', async () => {
    const victim = 'bulky';
    await custom.createNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'deploymentconfigs', body: dc(victim) });
    await waitFor(`${victim}-1 Complete`, async () => (await phaseOf(`${victim}-1`)) === 'Complete');
    const setImage = (image: string) => kubectl(['-n', ns, 'patch', `dc/${victim}`, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }])]);
    setImage('registry.local/app:2');
    await waitFor(`${victim}-2 Complete`, async () => (await phaseOf(`${victim}-2`)) === 'Complete');

    const forged = '"'.repeat(100_000);
    for (const rc of [`${victim}-1`, `${victim}-2`]) annotate(rc, `openshift.io/deployment-config.latest-version=${forged}`);
    const cond = await waitFor(`${victim} ReplicaFailure condition`, async () => ((await getDc(victim)).status?.conditions as { type: string; message: string }[] | undefined)
      ?.find((c) => c.type === 'ReplicaFailure' && c.message.includes(`"${victim}-2"`)));
    expect(cond.message).toContain('(100000 characters)');
    expect(cond.message.length).toBeLessThan(1024);

    setImage('registry.local/app:3');
    await waitFor(`${victim}-3 Complete`, async () => (await phaseOf(`${victim}-3`).catch(() => undefined)) === 'Complete');
  }, 120_000);
});
