import { describe, expect, it } from '@jest/globals';
import { Annotations } from '../../../src/apis/constants.js';
import { decodeDeploymentConfig } from '../../../src/apis/encoded.js';
import { FatalError } from '../../../src/controller/errors.js';
import { applyDefaults } from '../../../src/apps/defaults.js';
import { makeDeployment } from '../../../src/deploymentconfig/make-deployment.js';
import { makeDc } from './fixtures.js';

describe('makeDeployment', () => {
  const dc = applyDefaults(makeDc({ replicas: 3, latestVersion: 7 }));
  dc.status!.details = { message: 'config change', causes: [{ type: 'ConfigChange' }] };
  dc.spec.minReadySeconds = 5;
  dc.spec.template!.metadata!.annotations = { note: 'x' };
  dc.spec.template!.spec!.containers[0]!.image = '  nginx:1 \n';
  dc.spec.template!.spec!.initContainers = [{ name: 'init', image: ' busybox ' }];
  dc.metadata.annotations = { [Annotations.DeployerPodIgnore]: '', other: 'no' };
  const rc = makeDeployment(dc);

  it('names the RC <dc>-<version> in the DC namespace with a controller owner ref', () => {
    expect(rc.metadata?.name).toBe('app-7');
    expect(rc.metadata?.namespace).toBe('ns');
    expect(rc.metadata?.ownerReferences).toEqual([{
      apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'app', uid: 'dc-uid', controller: true, blockOwnerDeletion: true,
    }]);
  });

  it('copies DC labels and adds the config label', () => {
    expect(rc.metadata?.labels).toEqual({ team: 'a', 'openshift.io/deployment-config.name': 'app' });
  });

  it('sets exactly the OpenShift annotations', () => {
    const { [Annotations.EncodedConfig]: encoded, ...rest } = rc.metadata!.annotations!;
    expect(rest).toEqual({
      'openshift.io/deployment-config.name': 'app',
      'openshift.io/deployment.phase': 'New',
      'openshift.io/deployment-config.latest-version': '7',
      'kubectl.kubernetes.io/desired-replicas': '3',
      'openshift.io/deployment.replicas': '0',
      'openshift.io/deployment.status-reason': 'config change',
      'deploy.openshift.io/deployer-pod.ignore': '',
    });
    expect(decodeDeploymentConfig(rc).spec.template).toEqual(dc.spec.template);
    expect(JSON.parse(encoded!)).toMatchObject({ apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig' });
  });

  it('omits status-reason without details and starts at 0 replicas', () => {
    const plain = makeDeployment(applyDefaults(makeDc({ latestVersion: 1 })));
    expect(plain.metadata?.annotations).not.toHaveProperty(Annotations.StatusReason);
    expect(plain.metadata?.annotations).not.toHaveProperty(Annotations.DeployerPodIgnore);
    expect(plain.spec?.replicas).toBe(0);
  });

  it('builds selector and template metadata', () => {
    expect(rc.spec?.selector).toEqual({ app: 'app', deploymentconfig: 'app', deployment: 'app-7' });
    expect(rc.spec?.minReadySeconds).toBe(5);
    expect(rc.spec?.template?.metadata).toEqual({
      labels: { app: 'app', deploymentconfig: 'app', deployment: 'app-7' },
      annotations: {
        note: 'x',
        'openshift.io/deployment.name': 'app-7',
        'openshift.io/deployment-config.name': 'app',
        'openshift.io/deployment-config.latest-version': '7',
      },
    });
  });

  it('trims regular container images only and does not touch the DC', () => {
    expect(rc.spec?.template?.spec?.containers[0]?.image).toBe('nginx:1');
    expect(rc.spec?.template?.spec?.initContainers?.[0]?.image).toBe(' busybox ');
    expect(dc.spec.template!.spec!.containers[0]!.image).toBe('  nginx:1 \n');
  });

  it('throws FatalError when the DC cannot be encoded', () => {
    const bad = applyDefaults(makeDc({ latestVersion: 1 }));
    (bad.metadata.annotations as Record<string, unknown>) = { big: 10n };
    expect(() => makeDeployment(bad)).toThrow(FatalError);
    expect(() => makeDeployment(bad)).toThrow(/couldn't make deployment from \(potentially invalid\) deployment config ns\/app: /);
  });
});

describe('encoded config size (issue 14 item 4d)', () => {
  it('leaves out kubectl.kubernetes.io/last-applied-configuration, so a client-side-applied DC of 150 KB still fits', () => {
    const big = applyDefaults(makeDc({ latestVersion: 1 }));
    big.spec.template!.spec!.containers[0]!.env = Array.from({ length: 1500 }, (_, i) => ({ name: `VAR_${i}`, value: 'x'.repeat(90) }));
    big.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: big.spec }), keep: 'me' };
    const rc = makeDeployment(big);
    const encoded = rc.metadata!.annotations![Annotations.EncodedConfig]!;
    expect(encoded).not.toContain('last-applied-configuration');
    // The API server's limit on all annotations of an object together.
    const total = Object.entries(rc.metadata!.annotations!).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(total).toBeLessThan(256 * 1024);
    expect(decodeDeploymentConfig(rc).metadata.annotations).toEqual({ keep: 'me' });
    expect(decodeDeploymentConfig(rc).spec.template).toEqual(big.spec.template);
  });
});
