import { describe, expect, it } from '@jest/globals';
import { DeployerPodError, makeDeployerContainer, makeDeployerPod } from '../../../src/deployer-controller/pod.js';
import type { DeployerControllerOptions } from '../../../src/deployer-controller/options.js';
import { fnv1a32Hex, rcLabelValue } from '../../../src/util/naming.js';
import { makeDeployment, okDeploymentConfig } from './fixtures.js';

const options: DeployerControllerOptions = { deployerImage: 'quay.io/dcctl/deployer:v1' };
const created = new Date('2024-01-02T03:04:05Z');

describe('makeDeployerPod', () => {
  it('builds the OpenShift manifest for a plain Recreate DC', () => {
    const dc = okDeploymentConfig(1);
    const rc = makeDeployment(dc, created);
    expect(makeDeployerPod(rc, dc, options)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'config-1-deploy',
        namespace: 'default',
        labels: { 'openshift.io/deployer-pod-for.name': 'config-1' },
        annotations: {
          'openshift.io/deployment.name': 'config-1',
          'openshift.io/deployment-config.name': 'config',
        },
        ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'config-1', uid: 'rc-uid' }],
      },
      spec: {
        containers: [{
          name: 'deployment',
          image: 'quay.io/dcctl/deployer:v1',
          env: [
            { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: 'config-1' },
            { name: 'OPENSHIFT_DEPLOYMENT_NAMESPACE', value: 'default' },
          ],
          resources: {},
          terminationMessagePolicy: 'FallbackToLogsOnError',
          imagePullPolicy: 'IfNotPresent',
        }],
        activeDeadlineSeconds: 21600,
        restartPolicy: 'Never',
        serviceAccountName: 'deployer',
        terminationGracePeriodSeconds: 10,
        shareProcessNamespace: false,
      },
    });
  });

  it('uses the configured default command and service account', () => {
    const dc = okDeploymentConfig(1);
    const pod = makeDeployerPod(makeDeployment(dc, created), dc, {
      ...options, deployerCommand: ['dcctl', 'deploy'], serviceAccount: 'dc-deployer',
    });
    expect(pod.spec?.containers[0]?.command).toEqual(['dcctl', 'deploy']);
    expect(pod.spec?.serviceAccountName).toBe('dc-deployer');
  });

  it('lets customParams override image, command and lead the environment', () => {
    const dc = okDeploymentConfig(1, (d) => {
      d.spec.strategy = {
        type: 'Rolling',
        customParams: {
          image: 'custom/image:2',
          command: ['/bin/echo', 'hello', 'world'],
          environment: [{ name: 'ENV1', value: 'VAL1' }, { name: 'SHARED', value: 'from-dc' }],
        },
        resources: { limits: { cpu: '10', memory: '10G' } },
        activeDeadlineSeconds: 60,
      };
    });
    const pod = makeDeployerPod(makeDeployment(dc, created), dc, {
      ...options,
      deployerCommand: ['dcctl', 'deploy'],
      environment: [{ name: 'SHARED', value: 'from-controller' }, { name: 'EXTRA', value: 'x' }],
    });
    const container = pod.spec!.containers[0]!;
    expect(container.image).toBe('custom/image:2');
    expect(container.command).toEqual(['/bin/echo', 'hello', 'world']);
    expect(container.env).toEqual([
      { name: 'ENV1', value: 'VAL1' },
      { name: 'SHARED', value: 'from-dc' },
      { name: 'EXTRA', value: 'x' },
      { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: 'config-1' },
      { name: 'OPENSHIFT_DEPLOYMENT_NAMESPACE', value: 'default' },
    ]);
    expect(container.resources).toEqual({ limits: { cpu: '10', memory: '10G' } });
    expect(pod.spec?.activeDeadlineSeconds).toBe(60);
  });

  it('keeps the deployer image when customParams has no image', () => {
    const dc = okDeploymentConfig(1, (d) => { d.spec.strategy!.customParams = { command: ['sh', '-c', 'true'] }; });
    const container = makeDeployerPod(makeDeployment(dc, created), dc, options).spec!.containers[0]!;
    expect(container.image).toBe('quay.io/dcctl/deployer:v1');
    expect(container.command).toEqual(['sh', '-c', 'true']);
  });

  it('never lets strategy labels or annotations override the built-in ones', () => {
    const dc = okDeploymentConfig(1, (d) => {
      d.spec.strategy!.labels = { 'openshift.io/deployer-pod-for.name': 'evil', team: 'a' };
      d.spec.strategy!.annotations = { 'openshift.io/deployment.name': 'evil', note: 'n' };
    });
    const pod = makeDeployerPod(makeDeployment(dc, created), dc, options);
    expect(pod.metadata?.labels).toEqual({ 'openshift.io/deployer-pod-for.name': 'config-1', team: 'a' });
    expect(pod.metadata?.annotations).toEqual({
      'openshift.io/deployment.name': 'config-1',
      'openshift.io/deployment-config.name': 'config',
      note: 'n',
    });
  });

  it('copies placement and DNS settings from the RC template, and nothing else', () => {
    const dc = okDeploymentConfig(1);
    const rc = makeDeployment(dc, created, (r) => {
      r.spec!.template!.spec = {
        ...r.spec!.template!.spec!,
        dnsPolicy: 'None',
        dnsConfig: { nameservers: ['1.1.1.1'] },
        enableServiceLinks: false,
        imagePullSecrets: [{ name: 'pull' }],
        tolerations: [{ key: 'gpu', operator: 'Exists' }],
        nodeSelector: { labelKey1: 'labelValue1', labelKey2: 'labelValue2' },
        affinity: { nodeAffinity: {} },
        securityContext: { runAsUser: 5 },
        volumes: [{ name: 'v', emptyDir: {} }],
      };
    });
    const spec = makeDeployerPod(rc, dc, options).spec!;
    expect(spec.dnsPolicy).toBe('None');
    expect(spec.dnsConfig).toEqual({ nameservers: ['1.1.1.1'] });
    expect(spec.enableServiceLinks).toBe(false);
    expect(spec.imagePullSecrets).toEqual([{ name: 'pull' }]);
    expect(spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }]);
    expect(spec.nodeSelector).toEqual({ labelKey1: 'labelValue1', labelKey2: 'labelValue2' });
    expect(spec.affinity).toBeUndefined();
    expect(spec.securityContext).toBeUndefined();
    expect(spec.volumes).toBeUndefined();
  });

  it('adds configured placement without overriding the template', () => {
    const dc = okDeploymentConfig(1);
    const rc = makeDeployment(dc, created, (r) => {
      r.spec!.template!.spec!.nodeSelector = { zone: 'a' };
      r.spec!.template!.spec!.tolerations = [{ key: 'gpu', operator: 'Exists' }];
    });
    const spec = makeDeployerPod(rc, dc, {
      ...options,
      nodeSelector: { zone: 'b', pool: 'infra' },
      tolerations: [{ key: 'gpu', operator: 'Exists' }, { key: 'infra', operator: 'Exists', effect: 'NoSchedule' }],
    }).spec!;
    expect(spec.nodeSelector).toEqual({ zone: 'a', pool: 'infra' });
    expect(spec.tolerations).toEqual([
      { key: 'gpu', operator: 'Exists' },
      { key: 'infra', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('hashes pod names that would exceed 253 characters', () => {
    const dcName = 'a'.repeat(250);
    const dc = okDeploymentConfig(1, (d) => { d.metadata.name = dcName; });
    const pod = makeDeployerPod(makeDeployment(dc, created), dc, options);
    const rcName = `${dcName}-1`;
    expect(pod.metadata?.name).toBe(`${rcName.slice(0, 253 - 10 - 'deploy'.length)}-${fnv1a32Hex(rcName)}-deploy`);
    expect(pod.metadata?.name).toHaveLength(253);
    // A label value holds at most 63 characters: the RC name is shortened there (docs/crd.md, Long names).
    expect(pod.metadata?.labels?.['openshift.io/deployer-pod-for.name']).toBe(rcLabelValue(rcName));
    expect(pod.metadata?.labels?.['openshift.io/deployer-pod-for.name']).toHaveLength(63);
  });

  it('refuses an RC without a name or namespace', () => {
    const dc = okDeploymentConfig(1);
    const rc = makeDeployment(dc, created, (r) => { delete r.metadata!.name; });
    expect(() => makeDeployerPod(rc, dc, options)).toThrow(DeployerPodError);
  });

  it('does not share objects with the RC or the DC', () => {
    const dc = okDeploymentConfig(1, (d) => { d.spec.strategy!.resources = { limits: { cpu: '1' } }; });
    const rc = makeDeployment(dc, created, (r) => { r.spec!.template!.spec!.tolerations = [{ key: 'k' }]; });
    const pod = makeDeployerPod(rc, dc, options);
    pod.spec!.containers[0]!.resources!.limits!['cpu'] = '2';
    pod.spec!.tolerations![0]!.key = 'changed';
    expect(dc.spec.strategy!.resources).toEqual({ limits: { cpu: '1' } });
    expect(rc.spec!.template!.spec!.tolerations).toEqual([{ key: 'k' }]);
  });
});

describe('makeDeployerContainer', () => {
  it.each([
    ['a simple variable is injected', [{ name: 'FOO', value: 'BAR' }], [{ name: 'FOO', value: 'BAR' }]],
    ['a variable over 128000 bytes is not', [{ name: 'FOO', value: '0'.repeat(1001 * 128) }], []],
    ['a variable of exactly 128000 bytes is', [{ name: 'FOO', value: '0'.repeat(1000 * 128) }], [{ name: 'FOO', value: '0'.repeat(1000 * 128) }]],
  ])('%s', (_name, environment, expected) => {
    const dc = okDeploymentConfig(1);
    expect(makeDeployerContainer(dc.spec.strategy, { ...options, environment }).env).toEqual(expected);
  });
});
