import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { runDeployCommand } from '../../../src/deployer/command.js';
import { createHookPodManifest } from '../../../src/deployer/hooks.js';
import { deployerDeps } from '../../support/fakes.js';
import { Output } from '../../support/output.js';
import { newSimulatedCluster, workloadWrites } from '../../support/simulation.js';
import { NS, addRcFor, deploy, makeDc } from './helpers.js';

describe('createHookPodManifest', () => {
  const cluster = newSimulatedCluster();
  const dc = makeDc('web', { type: 'Recreate', labels: { team: 'a', 'openshift.io/deployer-pod.type': 'x' }, annotations: { note: 'n' }, activeDeadlineSeconds: 3600 });
  const rc = addRcFor(cluster, dc, 2);

  it('derives the pod from the named template container', () => {
    const pod = createHookPodManifest(
      {
        failurePolicy: 'Abort',
        execNewPod: { containerName: 'app', command: ['/bin/sh', '-c', 'migrate'], env: [{ name: 'B', value: 'hook' }, { name: 'C', value: 'new' }], volumes: ['data', 'missing'] },
      },
      rc,
      dc.spec.strategy!,
      'hook-pre',
      new Date('2024-01-01T00:00:00Z'),
      new Date('2024-01-01T00:01:40Z'),
    );
    expect(pod.metadata).toEqual({
      name: 'web-2-hook-pre',
      namespace: NS,
      labels: { 'openshift.io/deployer-pod-for.name': 'web-2', 'openshift.io/deployer-pod.type': 'hook-pre', team: 'a' },
      annotations: { 'openshift.io/deployment.name': 'web-2', note: 'n' },
    });
    expect(pod.spec).toMatchObject({
      activeDeadlineSeconds: 3500,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 10,
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    expect(pod.spec?.containers).toEqual([{
      name: 'lifecycle',
      image: 'registry/app:1',
      command: ['/bin/sh', '-c', 'migrate'],
      env: [
        { name: 'A', value: 'base' },
        { name: 'B', value: 'hook' },
        { name: 'C', value: 'new' },
        { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: 'web-2' },
        { name: 'OPENSHIFT_DEPLOYMENT_NAMESPACE', value: NS },
      ],
      volumeMounts: [{ name: 'data', mountPath: '/data' }],
    }]);
    expect(pod.metadata?.ownerReferences).toBeUndefined();
  });

  it('rejects an unknown container', () => {
    expect(() => createHookPodManifest(
      { failurePolicy: 'Abort', execNewPod: { containerName: 'nope', command: ['x'] } },
      rc, dc.spec.strategy!, 'hook-pre', new Date(), new Date(),
    )).toThrow("no container named 'nope' found in rc template");
  });
});

describe('hook events', () => {
  it('records Started and Completed on the DC, named <dc>.<hex nanos>, from the deployer pod', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Recreate', recreateParams: { pre: { failurePolicy: 'Abort', execNewPod: { containerName: 'app', command: ['a', 'b'] } } } });
    addRcFor(cluster, dc, 1, { desired: 1 });
    const { code } = await deploy(cluster, 'web-1');
    expect(code).toBe(0);
    expect(cluster.events.list().map((e) => [e.type, e.reason, e.message])).toEqual([
      ['Normal', 'Started', 'Running pre-hook ("a b") for rc ns/web-1'],
      ['Normal', 'Completed', 'The pre-hook for rc ns/web-1 completed successfully'],
    ]);
    const [started, completed] = cluster.events.list();
    expect(started?.metadata?.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(started?.metadata?.name).not.toBe(completed?.metadata?.name);
    expect(started?.source?.component).toBe('web-1-deploy');
    expect(started?.involvedObject).toEqual({
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'web', namespace: NS, uid: 'dc-uid-web', resourceVersion: '7',
    });
    expect(started?.count).toBe(1);
  });
});

describe('runDeployCommand', () => {
  it.each([
    [{}, {}, 'error: --deployment or OPENSHIFT_DEPLOYMENT_NAME is required\n'],
    [{ name: 'web-1' }, {}, 'error: --namespace or OPENSHIFT_DEPLOYMENT_NAMESPACE is required\n'],
    [{}, { OPENSHIFT_DEPLOYMENT_NAME: 'web-1' }, 'error: --namespace or OPENSHIFT_DEPLOYMENT_NAMESPACE is required\n'],
  ])('validates flags %p env %p', async (flags, env, message) => {
    const err = new Output();
    const code = await runDeployCommand(flags, { env, out: new Output().asStream(), errOut: err.asStream(), makeDeps: () => { throw new Error('not reached'); } });
    expect(code).toBe(1);
    expect(err.text).toBe(message);
  });

  it('takes name and namespace from the deployer pod environment', async () => {
    const cluster = newSimulatedCluster();
    addRcFor(cluster, makeDc('web', { type: 'Recreate' }, { replicas: 1 }), 1, { desired: 1 });
    const out = new Output();
    const code = await runDeployCommand({}, {
      env: { OPENSHIFT_DEPLOYMENT_NAME: 'web-1', OPENSHIFT_DEPLOYMENT_NAMESPACE: NS },
      out: out.asStream(), errOut: new Output().asStream(), makeDeps: () => deployerDeps(cluster),
    });
    expect(code).toBe(0);
    expect(out.lines.at(-1)).toBe('--> Success');
  });

  it('refuses Custom strategies', async () => {
    const cluster = newSimulatedCluster();
    addRcFor(cluster, makeDc('web', { type: 'Custom', customParams: { image: 'x' } }), 1);
    const { code, err } = await deploy(cluster, 'web-1');
    expect(code).toBe(1);
    expect(err.text).toBe('error: unsupported strategy type: Custom\n');
  });

  it('refuses an RC without desired replicas', async () => {
    const cluster = newSimulatedCluster();
    addRcFor(cluster, makeDc('web', { type: 'Rolling' }), 1, { desired: null });
    const { code, err } = await deploy(cluster, 'web-1');
    expect(code).toBe(1);
    expect(err.text).toBe('error: deployment web-1 has already run to completion\n');
  });

  it('refuses a negative desired-replicas (an RC annotation anyone who may patch RCs can write) instead of scaling the old RC to 0', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling' });
    addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 3, desired: null });
    addRcFor(cluster, dc, 2, { desired: -1 });
    const { code, err } = await deploy(cluster, 'web-2');
    expect(code).toBe(1);
    expect(err.text).toBe('error: metadata.annotations["kubectl.kubernetes.io/desired-replicas"]: invalid value "-1": must be 0 or more\n');
    expect(cluster.rcs.get(NS, 'web-1')?.spec?.replicas).toBe(3);
  });

  it('refuses to deploy an RC older than the last complete one', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Rolling' });
    addRcFor(cluster, dc, 1);
    addRcFor(cluster, dc, 2, { phase: 'Complete', replicas: 3, desired: null });
    const { code, err } = await deploy(cluster, 'web-1');
    expect(code).toBe(1);
    expect(err.text).toBe('error: deployment web-1 is older than web-2\n');
  });

  it('reports a missing RC and an undecodable config', async () => {
    const cluster = newSimulatedCluster();
    let r = await deploy(cluster, 'web-9');
    expect(r.code).toBe(1);
    expect(r.err.text).toBe('error: couldn\'t get deployment web-9: replicationcontrollers "web-9" not found\n');
    addRcFor(cluster, makeDc('web', { type: 'Rolling' }), 1, { annotations: { [Annotations.EncodedConfig]: '{' } });
    r = await deploy(cluster, 'web-1');
    expect(r.code).toBe(1);
    expect(r.err.text).toMatch(/^error: couldn't decode deployment config from deployment web-1: /);
  });

  it('scales down RCs other than from/to and only prints failures', async () => {
    const cluster = newSimulatedCluster();
    const dc = makeDc('web', { type: 'Recreate' }, { replicas: 1 });
    addRcFor(cluster, dc, 1, { phase: 'Complete', replicas: 1, desired: null });
    addRcFor(cluster, dc, 2, { phase: 'Failed', replicas: 2 });
    addRcFor(cluster, dc, 3, { phase: 'Failed', replicas: 0 });
    addRcFor(cluster, dc, 4, { desired: 1 });
    const { code, out } = await deploy(cluster, 'web-4', 'start');
    expect(code).toBe(0);
    expect(out.lines).toEqual(['--> Scaled older deployment web-2 down', '--> Ready to start deployment']);
    expect(workloadWrites(cluster)).toEqual(['scale web-2 0']);
  });
});
