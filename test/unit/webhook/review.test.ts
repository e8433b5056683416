/**
 * The admission webhook's decision (src/webhook/review.ts) against an injected dry-run: which
 * writes are judged, how kube-apiserver's refusal of the probe RC becomes the DC's, and that
 * anything else admits the DC. The real-plane proof is test/e2e/webhook.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../src/controller/errors.js';
import { admissionRequestOf, BadReviewError, reviewDeploymentConfig, type AdmissionRequest } from '../../../src/webhook/review.js';

const dc = (containerName = 'web', image = 'nginx') => ({
  apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
  metadata: { name: 'web', namespace: 'a' },
  spec: {
    replicas: 1, selector: { app: 'web' },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: containerName, image }] } },
  },
});

const request = (over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  uid: 'u-1', resource: { group: 'apps.openshift.io', resource: 'deploymentconfigs' }, operation: 'CREATE', namespace: 'a', name: 'web', object: dc(), ...over,
});

interface Probe { namespace: string; rc: Record<string, any> } // eslint-disable-line @typescript-eslint/no-explicit-any
function recorder(outcome?: unknown) {
  const probes: Probe[] = [];
  const dryRun = async (namespace: string, rc: Record<string, unknown>) => {
    probes.push({ namespace, rc });
    if (outcome !== undefined) throw outcome;
  };
  return { probes, dryRun };
}

const refusal = (causes: { field?: string; message?: string; reason?: string }[]) =>
  new ApiError('ReplicationController "web-x" is invalid: ...', 422, 'Invalid', { causes });

describe('reviewDeploymentConfig', () => {
  it('admits a DC whose template the server takes, after dry-running it as an RC in the DC namespace', async () => {
    const { probes, dryRun } = recorder();
    expect(await reviewDeploymentConfig(request(), dryRun)).toEqual({ uid: 'u-1', allowed: true });
    expect(probes).toHaveLength(1);
    expect(probes[0]!.namespace).toBe('a');
    expect(probes[0]!.rc).toMatchObject({ kind: 'ReplicationController', metadata: { generateName: 'web-', namespace: 'a' }, spec: { replicas: 0, template: dc().spec.template } });
  });

  it('refuses the DC with the server\'s template causes, worded as kube-apiserver words an Invalid DC', async () => {
    const { dryRun } = recorder(refusal([
      { field: 'spec.template.spec.containers[0].name', message: 'Invalid value: "Web_1": a lowercase RFC 1123 label must consist of ...', reason: 'FieldValueInvalid' },
      { field: 'spec.template.spec.containers[0].ports[0].containerPort', message: 'Invalid value: 70000: must be between 1 and 65535, inclusive', reason: 'FieldValueInvalid' },
    ]));
    const response = await reviewDeploymentConfig(request({ object: dc('Web_1') }), dryRun);
    expect(response.allowed).toBe(false);
    expect(response.uid).toBe('u-1');
    expect(response.status).toMatchObject({
      code: 422, reason: 'Invalid', status: 'Failure',
      message: 'DeploymentConfig.apps.openshift.io "web" is invalid: [spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of ..., '
        + 'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive]',
      details: { name: 'web', group: 'apps.openshift.io', kind: 'DeploymentConfig' },
    });
    expect(response.status?.details?.causes?.map((c) => c.field)).toEqual(['spec.template.spec.containers[0].name', 'spec.template.spec.containers[0].ports[0].containerPort']);
  });

  it('names a DC created with generateName by its prefix', async () => {
    const object = { ...dc('Web_1'), metadata: { generateName: 'web-', namespace: 'a' } };
    const { dryRun } = recorder(refusal([{ field: 'spec.template.spec.containers[0].name', message: 'Invalid value' }]));
    const response = await reviewDeploymentConfig(request({ object, name: '' }), dryRun);
    expect(response.status?.message).toBe('DeploymentConfig.apps.openshift.io "web-" is invalid: spec.template.spec.containers[0].name: Invalid value');
  });

  it('admits a DC when the RC is refused only outside its template (the probe\'s own fields are not the DC\'s)', async () => {
    const { dryRun } = recorder(refusal([{ field: 'metadata.generateName', message: 'Invalid value' }]));
    expect(await reviewDeploymentConfig(request(), dryRun)).toEqual({ uid: 'u-1', allowed: true });
  });

  it.each([
    ['no right to create RCs', new ApiError('forbidden', 403, 'Forbidden')],
    ['a missing namespace', new ApiError('namespaces "a" not found', 404, 'NotFound')],
    ['an outage', new Error('connect ECONNREFUSED 127.0.0.1:6443')],
  ])('admits the DC with a warning when the template cannot be judged: %s', async (_what, err) => {
    const { dryRun } = recorder(err);
    const response = await reviewDeploymentConfig(request(), dryRun);
    expect(response.allowed).toBe(true);
    expect(response.status).toBeUndefined();
    expect(response.warnings).toEqual([expect.stringContaining('the pod template of DeploymentConfig "web" was not checked as a ReplicationController\'s: ')]);
    expect(response.warnings?.[0]).toContain((err as Error).message);
  });

  it('judges an update only when it changes the template, so a DC stored unjudged keeps taking other changes', async () => {
    const { probes, dryRun } = recorder(refusal([{ field: 'spec.template.spec.containers[0].name', message: 'Invalid value' }]));
    const stored = dc('Web_1');
    const annotated = { ...stored, metadata: { ...stored.metadata, annotations: { 'deploy.dcctl.io/instantiate': '{"id":"1"}' } }, spec: { ...stored.spec, replicas: 3 } };
    expect(await reviewDeploymentConfig(request({ operation: 'UPDATE', object: annotated, oldObject: stored }), dryRun)).toEqual({ uid: 'u-1', allowed: true });
    expect(probes).toHaveLength(0);
    const renamed = dc('Web_2');
    expect((await reviewDeploymentConfig(request({ operation: 'UPDATE', object: renamed, oldObject: stored }), dryRun)).allowed).toBe(false);
    expect(probes).toHaveLength(1);
  });

  it.each([
    ['a status write', { subResource: 'status' }],
    ['a scale', { subResource: 'scale' }],
    ['a delete', { operation: 'DELETE', object: undefined, oldObject: dc('Web_1') }],
    ['another resource', { resource: { group: '', resource: 'replicationcontrollers' } }],
    ['a DC without a template', { object: { metadata: { name: 'web' }, spec: {} } }],
  ])('admits %s without asking the server', async (_what, over) => {
    const { probes, dryRun } = recorder(refusal([{ field: 'spec.template.spec.containers[0].name', message: 'Invalid value' }]));
    expect(await reviewDeploymentConfig(request(over as Partial<AdmissionRequest>), dryRun)).toEqual({ uid: 'u-1', allowed: true });
    expect(probes).toHaveLength(0);
  });

  it('gives a container an ImageChange trigger sets, with no image yet, OpenShift\'s "unset" image for the check', async () => {
    const { probes, dryRun } = recorder();
    const object = dc('web', '');
    (object.spec as Record<string, unknown>)['triggers'] = [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' } } }];
    expect((await reviewDeploymentConfig(request({ object }), dryRun)).allowed).toBe(true);
    expect(probes[0]!.rc['spec'].template.spec.containers[0].image).toBe('unset');
  });
});

describe('admissionRequestOf', () => {
  it('returns the request of an admission.k8s.io/v1 AdmissionReview', () => {
    expect(admissionRequestOf({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: request() })).toEqual(request());
  });

  it.each([
    ['not an object', [], 'the body is not an AdmissionReview object'],
    ['v1beta1', { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: request() }, 'want apiVersion admission.k8s.io/v1 and kind AdmissionReview, got "admission.k8s.io/v1beta1" and "AdmissionReview"'],
    ['no request', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, 'the AdmissionReview has no request'],
    ['no uid', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { ...request(), uid: 7 } }, 'request.uid: want a non-empty string'],
  ])('refuses %s, naming what is wrong', (_what, body, message) => {
    expect(() => admissionRequestOf(body)).toThrow(new BadReviewError(message));
  });
});
