import { describe, expect, it } from '@jest/globals';
import { steppableWallClock } from '../../support/wall-clock.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { Authorizer } from '../../../src/apiserver/authz.js';
import { apiResourceList, openApiV2, openApiV3 } from '../../../src/apiserver/discovery.js';
import { requestInfo } from '../../../src/apiserver/request-info.js';
import { prepareForCreate, prepareForUpdate } from '../../../src/apiserver/resources.js';
import { fromStorageStatus } from '../../../src/apiserver/status.js';
import { impersonationHeaders, ProxiedGroup } from '../../../src/apiserver/storage.js';
import { negotiate, table, triggeredBy } from '../../../src/apiserver/table.js';

const G = '/apis/apps.openshift.io/v1';

describe('request info (kube-apiserver verb mapping for this group)', () => {
  it('maps methods and paths to verbs, subresources and names', () => {
    expect(requestInfo('GET', `${G}/namespaces/a/deploymentconfigs`)).toMatchObject({ kind: 'resource', verb: 'list', namespace: 'a' });
    expect(requestInfo('GET', `${G}/namespaces/a/deploymentconfigs?watch=true`)).toMatchObject({ verb: 'watch' });
    expect(requestInfo('GET', `${G}/watch/namespaces/a/deploymentconfigs/web`)).toMatchObject({ verb: 'watch', name: 'web' });
    expect(requestInfo('GET', `${G}/deploymentconfigs`)).toMatchObject({ verb: 'list', namespace: undefined });
    expect(requestInfo('POST', `${G}/namespaces/a/deploymentconfigs/web/instantiate`)).toMatchObject({ verb: 'create', name: 'web', subresource: 'instantiate' });
    expect(requestInfo('DELETE', `${G}/namespaces/a/deploymentconfigs`)).toMatchObject({ verb: 'deletecollection' });
    expect(requestInfo('PATCH', `${G}/namespaces/a/deploymentconfigs/web/status`)).toMatchObject({ verb: 'patch', subresource: 'status' });
  });

  it('accepts oc\'s "deploymentConfigs" spelling of the log path', () => {
    expect(requestInfo('GET', `${G}/namespaces/a/deploymentConfigs/web/log?version=2`)).toMatchObject({ verb: 'get', subresource: 'log', name: 'web' });
  });

  it('does not route unknown resources or subresources, and leaves discovery paths non-resource', () => {
    expect(requestInfo('GET', `${G}/namespaces/a/buildconfigs`).kind).toBe('notFound');
    expect(requestInfo('GET', `${G}/namespaces/a/deploymentconfigs/web/exec`).kind).toBe('notFound');
    expect(requestInfo('GET', G)).toMatchObject({ kind: 'nonResource', path: G });
  });
});

describe('Table and content negotiation', () => {
  const dc = (triggers: unknown[], containers = ['web']): DeploymentConfig => ({
    metadata: { name: 'web' },
    spec: { replicas: 3, test: true, triggers, template: { spec: { containers: containers.map((name) => ({ name })) } } },
    status: { latestVersion: 4, updatedReplicas: 2 },
  } as unknown as DeploymentConfig);

  it('prints OpenShift\'s TRIGGERED BY: config, automatic image triggers, container prefix when not all containers', () => {
    const img = (automatic: boolean, names: string[]) => ({ type: 'ImageChange', imageChangeParams: { automatic, containerNames: names, from: { name: 'web:latest' } } });
    expect(triggeredBy(dc([{ type: 'ConfigChange' }, img(true, ['web'])]))).toBe('config,image(web:latest)');
    expect(triggeredBy(dc([img(false, ['web'])]))).toBe('');
    expect(triggeredBy(dc([img(true, ['a'])], ['a', 'b']))).toBe('image(a:web:latest)');
  });

  it('builds rows NAME, REVISION, DESIRED (during test), CURRENT, TRIGGERED BY with metadata objects', () => {
    const t = table([dc([{ type: 'ConfigChange' }])], { resourceVersion: '9' }, 'Metadata') as { rows: Array<{ cells: unknown[]; object: { kind: string } }> };
    expect(t.rows[0]!.cells).toEqual(['web', 4, '3 (during test)', 2, 'config']);
    expect(t.rows[0]!.object.kind).toBe('PartialObjectMetadata');
  });

  it('negotiates kubectl\'s and the garbage collector\'s Accept headers', () => {
    expect(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', true)).toBe('table');
    expect(negotiate('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json', true)).toBe('metadata');
    expect(negotiate('application/json', false)).toBe('object');
    expect(negotiate('application/vnd.kubernetes.protobuf', false)).toBeUndefined();
  });
});

describe('OpenShift create/update rules', () => {
  const base = (): DeploymentConfig => ({
    apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig',
    metadata: { name: 'web', namespace: 'a', resourceVersion: '5' },
    spec: { replicas: 1, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'x' }] } },
      triggers: [{ type: 'ImageChange', imageChangeParams: { automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' }, lastTriggeredImage: 'old' } }] },
    status: { latestVersion: 3 },
  } as DeploymentConfig);

  it('create: empty status, lastTriggeredImage cleared, OpenShift defaults applied', () => {
    const out = prepareForCreate(base());
    expect(out.status).toBeUndefined();
    expect(out.spec.triggers![0]!.imageChangeParams!.lastTriggeredImage).toBeUndefined();
    expect(out.spec.triggers![0]!.imageChangeParams!.from.namespace).toBe('a');
    expect(out.spec.strategy?.type).toBe('Rolling');
  });

  it('create and update take a Quantity sent as a fractional number, as OpenShift\'s decoder did, and store it as the string the storage CRD takes', () => {
    const withNumbers = (): DeploymentConfig => {
      const dc = base();
      const pod = dc.spec.template!.spec!;
      pod.containers[0]!.resources = { limits: { cpu: 0.5, memory: 268435456 }, requests: { cpu: '100m' } } as never;
      pod.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: 1.5 } } as never];
      dc.spec.strategy = { type: 'Recreate', resources: { requests: { cpu: 0.25 } } } as never;
      dc.spec.replicas = 2;
      return dc;
    };
    for (const out of [prepareForCreate(withNumbers()), prepareForUpdate(withNumbers(), base())]) {
      expect(out.spec.template!.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '0.5', memory: 268435456 }, requests: { cpu: '100m' } });
      expect(out.spec.template!.spec!.volumes![0]!.emptyDir).toEqual({ sizeLimit: '1.5' });
      expect(out.spec.strategy!.resources).toEqual({ requests: { cpu: '0.25' } });
      expect(out.spec.replicas).toBe(2);
    }
  });

  it('update: stored status wins; latestVersion + 1 becomes a forced instantiate request (oc rollout undo / latest fallback)', () => {
    const stored = { ...base(), status: { latestVersion: 3, observedGeneration: 7 } };
    const same = prepareForUpdate({ ...base(), status: { latestVersion: 9 } }, stored, () => 'id-1');
    expect(same.status).toEqual({ latestVersion: 3, observedGeneration: 7 });
    expect(same.metadata.annotations?.['deploy.dcctl.io/instantiate']).toBeUndefined();
    const bump = prepareForUpdate({ ...base(), status: { latestVersion: 4 } }, stored, () => 'id-1');
    expect(JSON.parse(bump.metadata.annotations!['deploy.dcctl.io/instantiate']!)).toEqual({ id: 'id-1', force: true, latest: false });
    expect(bump.status?.latestVersion).toBe(3);
  });
});

describe('discovery and OpenAPI', () => {
  it('publishes the subresources with their kinds', () => {
    const names = (apiResourceList() as { resources: Array<{ name: string }> }).resources.map((r) => r.name);
    expect(names).toEqual(['deploymentconfigs', 'deploymentconfigs/instantiate', 'deploymentconfigs/log', 'deploymentconfigs/rollback', 'deploymentconfigs/scale', 'deploymentconfigs/status']);
  });

  it('v3 has the DC with the upstream pod template; v2 has only resolvable #/definitions references', () => {
    const v3 = openApiV3() as { components: { schemas: Record<string, { properties?: Record<string, { allOf?: Array<{ $ref: string }> }> }> } };
    const dc = v3.components.schemas['com.github.openshift.api.apps.v1.DeploymentConfig']!;
    expect(JSON.stringify(dc)).toContain('#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec');
    const v2 = openApiV2() as { definitions: Record<string, unknown> };
    const text = JSON.stringify(v2);
    expect(text).not.toContain('#/components/');
    for (const m of text.matchAll(/"#\/definitions\/([^"]+)"/g)) expect(v2.definitions[m[1]!]).toBeDefined();
    expect(text).not.toContain('"anyOf"');
    expect(text).not.toContain('"oneOf"');
  });
});

describe('storage access and errors', () => {
  it('impersonates the user with uid, groups, extras and the proxied group', () => {
    const h = impersonationHeaders({ name: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
    expect(h).toEqual({ 'impersonate-user': 'alice', 'impersonate-uid': 'u-1', 'impersonate-group': ['dev', ProxiedGroup], 'impersonate-extra-scopes': ['a', 'b'] });
  });

  it('rewords storage errors for the public group', () => {
    const e = fromStorageStatus({ kind: 'Status', code: 404, reason: 'NotFound', message: 'deploymentconfigs.apps.dcctl.io "web" not found', details: { name: 'web', group: 'apps.dcctl.io', kind: 'deploymentconfigs' } }, 404, 'apps.dcctl.io');
    expect(e.body).toMatchObject({ code: 404, reason: 'NotFound', message: 'deploymentconfigs.apps.openshift.io "web" not found', details: { group: 'apps.openshift.io' } });
  });

  // A server-side apply of a real export with an unknown container field (`volumes` one level too
  // deep): the storage names its own group as group/version, which the client must not see.
  it('rewords the storage group in a group/version too (a server-side apply\'s typed-patch error)', () => {
    const message = 'failed to create typed patch object (fid/mariadb; apps.dcctl.io/v1, Kind=DeploymentConfig): .spec.template.spec.containers[name="mariadb"].volumes: field not declared in schema';
    const e = fromStorageStatus({ kind: 'Status', code: 500, reason: 'InternalError', message }, 500, 'apps.dcctl.io');
    expect(e.body.message).toBe('failed to create typed patch object (fid/mariadb; apps.openshift.io/v1, Kind=DeploymentConfig): .spec.template.spec.containers[name="mariadb"].volumes: field not declared in schema');
  });

  it('caches SubjectAccessReview decisions for the TTL only', async () => {
    let calls = 0;
    let t = 0;
    const authz = new Authorizer(async () => { calls++; return { allowed: calls === 1 }; }, 10_000, () => t);
    const user = { name: 'a', groups: [], extra: {} };
    const attrs = { resource: { verb: 'get', group: 'apps.openshift.io', version: 'v1', resource: 'deploymentconfigs' } };
    expect((await authz.authorize(user, attrs)).allowed).toBe(true);
    t = 5_000;
    expect((await authz.authorize(user, attrs)).allowed).toBe(true);
    t = 10_001;
    expect((await authz.authorize(user, attrs)).allowed).toBe(false);
    expect(calls).toBe(2);
  });

  it('expires a cached allow after its TTL of elapsed time even when the wall clock steps back', async () => {
    // A permission revoked after an allow was cached must stop working within the TTL; a wall
    // clock stepped back one hour (NTP, a resumed VM) must not keep the allow for an hour.
    let allowed = true;
    const wallClock = steppableWallClock();
    const authz = new Authorizer(async () => ({ allowed }), 50);
    const user = { name: 'a', groups: [], extra: {} };
    const attrs = { resource: { verb: 'create', group: 'apps.openshift.io', version: 'v1', resource: 'deploymentconfigs', subresource: 'instantiate' } };
    expect((await authz.authorize(user, attrs)).allowed).toBe(true);
    allowed = false;
    wallClock.step(-3600_000);
    try {
      await new Promise((r) => setTimeout(r, 80));
      expect((await authz.authorize(user, attrs)).allowed).toBe(false);
    } finally {
      wallClock.restore();
    }
  });
});
