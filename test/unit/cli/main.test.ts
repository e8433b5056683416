import { describe, it, expect } from '@jest/globals';
import { main, type CliDeps } from '../../../src/cli/index.js';
import type { GlobalOptions } from '../../../src/cli/options.js';
import type { DeployCommandOptions } from '../../../src/deployer/command.js';
import type { ManagerOptions } from '../../../src/manager-options.js';
import { Output } from '../../support/output.js';
import { makeDc, makeRc, testContext } from './fixtures.js';

function harness() {
  const t = testContext();
  const out = new Output();
  const err = new Output();
  const contexts: Array<{ global: GlobalOptions; commandName: string }> = [];
  const manager: ManagerOptions[] = [];
  const deploys: DeployCommandOptions[] = [];
  const deps: Partial<CliDeps> = {
    out, err, env: { OPENSHIFT_DEPLOYMENT_NAME: 'web-3', OPENSHIFT_DEPLOYMENT_NAMESPACE: 'apps' },
    makeContext: async (global, streams, commandName) => {
      contexts.push({ global, commandName });
      return { ...t.ctx, ...streams, namespace: global.namespace ?? 'default', commandName };
    },
    loadManager: async () => ({ runManager: async (o: ManagerOptions) => { manager.push(o); return 0; } }),
    loadDeployer: async () => ({ runDeployCommand: async (o: DeployCommandOptions) => { deploys.push(o); return 3; } }),
  };
  return { t, out, err, deps, contexts, manager, deploys };
}

describe('main', () => {
  it.each([['web'], ['dc/web'], ['deploymentconfig/web'], ['deploymentconfig.apps.openshift.io/web'], ['dc', 'web']])(
    'accepts %s and passes -n/--context/--kubeconfig to the context', async (...target) => {
      const h = harness();
      h.t.addDc(makeDc('web'));
      const code = await main(['rollout', 'pause', ...target, '-n', 'ns1', '--context', 'kind', '--kubeconfig', '/k'], 'dcctl', h.deps);
      expect(code).toBe(0);
      expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web paused\n');
      expect(h.contexts).toEqual([{ global: { namespace: 'ns1', context: 'kind', kubeconfig: '/k' }, commandName: 'dcctl' }]);
    });

  it('prints API errors kubectl-style and exits 1', async () => {
    const h = harness();
    const code = await main(['rollout', 'history', 'dc/missing', '-n', 'ns1'], 'dcctl', h.deps);
    expect(code).toBe(1);
    expect(h.err.text).toBe('Error from server (NotFound): deploymentconfigs.apps.openshift.io "missing" not found\n');
  });

  it('prints refusals as "error: ..." and exits 1', async () => {
    const h = harness();
    h.t.addDc(makeDc('web', { paused: true }));
    expect(await main(['rollout', 'latest', 'dc/web', '-n', 'ns1'], 'dcctl', h.deps)).toBe(1);
    expect(h.err.text).toBe('error: cannot deploy a paused deployment config\n');
  });

  it('rejects other resource types', async () => {
    const h = harness();
    expect(await main(['rollout', 'cancel', 'deployment/web'], 'dcctl', h.deps)).toBe(1);
    expect(h.err.text).toBe('error: expected deployment configuration, got deployment\n');
    expect(h.contexts).toEqual([]);
  });

  it('parses history --revision and -o yaml', async () => {
    const h = harness();
    const dc = makeDc('web', { latestVersion: 1 });
    h.t.addDc(dc);
    h.t.f.rcs.put(makeRc(dc, 1, 'Complete', { reason: 'config change' }));
    expect(await main(['rollout', 'history', 'web', '-n', 'ns1', '-o', 'yaml'], 'dcctl', h.deps)).toBe(0);
    expect(h.out.text).toBe('- revision: 1\n  status: Complete\n  cause: config change\n  replicationController: web-1\n');
  });

  it('passes --timeout and --again to latest', async () => {
    const h = harness();
    h.t.addDc(makeDc('web'));
    expect(await main(['rollout', 'latest', 'web', '-n', 'ns1', '--again', '--timeout', '0'], 'kubectl dc', h.deps)).toBe(0);
    expect(h.t.writes('deploymentconfigs')[0]?.body).toEqual({ metadata: { annotations: { 'deploy.dcctl.io/instantiate': '{"id":"req-1","latest":false,"force":true}' }, resourceVersion: '7' } });
    expect(h.out.text).toBe('deploymentconfig.apps.openshift.io/web rollout requested\n');
  });

  it('reports usage errors with exit 1', async () => {
    const h = harness();
    expect(await main(['rollout'], 'dcctl', h.deps)).toBe(1);
    expect(h.err.text).toContain('a rollout verb is required');
    const h2 = harness();
    expect(await main(['rollout', 'latest', 'web', '--bogus'], 'dcctl', h2.deps)).toBe(1);
    expect(h2.err.text).toContain('Unknown argument');
    const h3 = harness();
    expect(await main(['rollout', 'status', 'web', '--timeout', 'soon'], 'dcctl', h3.deps)).toBe(1);
    expect(h3.err.text).toContain('invalid argument "soon" for "--timeout" flag');
  });

  it('prints help and a completion script to stdout', async () => {
    const h = harness();
    expect(await main(['--help'], 'kubectl dc', h.deps)).toBe(0);
    expect(h.out.text).toContain('kubectl dc rollout');
    const h2 = harness();
    expect(await main(['completion'], 'dcctl', h2.deps)).toBe(0);
    expect(h2.out.text).toContain('dcctl');
    expect(h2.out.text).toContain('complete');
  });

  it('runs the controller with defaults and flags mapped to ManagerOptions', async () => {
    const h = harness();
    expect(await main(['controller', '--deployer-image', 'img:1', '--deployer-command', 'node /app/bin/dcctl.js deploy', '--leader-elect=false'], 'dcctl', h.deps)).toBe(0);
    expect(h.manager).toEqual([{
      kubeconfig: undefined, context: undefined, namespace: undefined, dcGroup: 'apps.openshift.io', workers: 5,
      deployerImage: 'img:1', deployerCommand: ['node', '/app/bin/dcctl.js', 'deploy'], deployerServiceAccount: 'deployer',
      enableDcController: true, enableDeployerController: true, enableImageTriggerController: true, leaderElect: false, leaderElectionNamespace: undefined,
      metricsBindAddress: '127.0.0.1:8080', crossNamespaceImages: 'admission', crossNamespacePolicy: 'dcctl-cross-namespace-image-references', metricsSecure: false, metricsAuth: true, metricsCertDir: undefined, webhookBindAddress: '0', webhookCertDir: undefined, logLevel: 'info', logFormat: 'json', manageDeployerAccess: true, resyncSeconds: 600, statusBatchSeconds: 2,
      deployerEnvironment: [], deployerNodeSelector: undefined, deployerTolerations: undefined, defaultDeployer: 'pod',
    }]);
  });

  it('maps the webhook flags', async () => {
    const h = harness();
    expect(await main(['controller', '--webhook-bind-address', ':9443', '--webhook-cert-dir', '/etc/dcctl/webhook'], 'dcctl', h.deps)).toBe(0);
    expect(h.manager[0]).toMatchObject({ webhookBindAddress: ':9443', webhookCertDir: '/etc/dcctl/webhook' });
  });

  it('maps --cross-namespace-images and --cross-namespace-policy, and refuses an unknown mode naming the flag', async () => {
    const h = harness();
    expect(await main(['controller', '--cross-namespace-images', 'deny', '--cross-namespace-policy', 'x-policy'], 'dcctl', h.deps)).toBe(0);
    expect(h.manager[0]).toMatchObject({ crossNamespaceImages: 'deny', crossNamespacePolicy: 'x-policy' });
    const h2 = harness();
    expect(await main(['controller', '--cross-namespace-images', 'sometimes'], 'dcctl', h2.deps)).toBe(1);
    expect(h2.err.text).toContain('cross-namespace-images');
  });

  it('maps --default-deployer and refuses a value other than pod or inline', async () => {
    const h = harness();
    expect(await main(['controller', '--default-deployer', 'inline'], 'dcctl', h.deps)).toBe(0);
    expect(h.manager[0]).toMatchObject({ defaultDeployer: 'inline' });
    const h2 = harness();
    expect(await main(['controller', '--default-deployer', 'job'], 'dcctl', h2.deps)).toBe(1);
    expect(h2.err.text).toContain('default-deployer');
  });

  it('parses the deployer pod placement and environment flags', async () => {
    const h = harness();
    expect(await main(['controller', '--deployer-env', 'A=1', 'B=x=y', '--deployer-node-selector', 'pool=infra',
      '--deployer-toleration', 'spot=true:NoSchedule', 'gpu'], 'dcctl', h.deps)).toBe(0);
    expect(h.manager[0]).toMatchObject({
      deployerEnvironment: [{ name: 'A', value: '1' }, { name: 'B', value: 'x=y' }],
      deployerNodeSelector: { pool: 'infra' },
      deployerTolerations: [{ key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' }, { key: 'gpu', operator: 'Exists' }],
    });
  });

  it('rejects malformed deployer flags naming the flag', async () => {
    const h = harness();
    expect(await main(['controller', '--deployer-node-selector', 'novalue'], 'dcctl', h.deps)).toBe(1);
    expect(h.err.text).toContain('"--deployer-node-selector"');
    const h2 = harness();
    expect(await main(['controller', '--deployer-toleration', 'k:Sometimes'], 'dcctl', h2.deps)).toBe(1);
    expect(h2.err.text).toContain('"--deployer-toleration"');
    expect(h.manager).toEqual([]);
  });

  it('runs the deployer with the pod environment as defaults and returns its exit code', async () => {
    const h = harness();
    expect(await main(['deploy', '--until', 'pre'], 'dcctl', h.deps)).toBe(3);
    expect(h.deploys).toEqual([{ name: 'web-3', namespace: 'apps', until: 'pre', kubeconfig: undefined, context: undefined }]);
  });
});
