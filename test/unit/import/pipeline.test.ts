import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importObjects, type ImportInput } from '../../../src/import/pipeline.js';
import { decodeDocuments } from '../../../src/import/parse.js';
import { classify } from '../../../src/import/kinds.js';
import { convertRemovedVersion, replacementVersion } from '../../../src/import/removed-versions.js';
import { formatObjects, formatReport } from '../../../src/import/report.js';
import { ImportInputError, formatOrigin, type ImportEntry, type ImportResult, type KubeObject } from '../../../src/import/types.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/import');
const input = (name: string): ImportInput => ({ source: name, text: readFileSync(path.join(dir, name), 'utf8') });
const run = (names: string[], params: Record<string, string> = {}): ImportResult =>
  importObjects(names.map(input), { params: new Map(Object.entries(params)), random: () => 0 });
const problemsOf = (fn: () => unknown): string[] => {
  try { fn(); } catch (err) { if (err instanceof ImportInputError) return err.problems.map((p) => p.message); throw err; }
  throw new Error('expected ImportInputError');
};
const entry = (r: ImportResult, ref: string): ImportEntry => {
  const e = r.entries.find((x) => x.ref === ref);
  if (!e) throw new Error(`no entry ${ref}: ${r.entries.map((x) => x.ref).join(', ')}`);
  return e;
};
const get = (o: unknown, ...keys: (string | number)[]): unknown => keys.reduce((v: unknown, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

describe('import of an `oc get -o yaml` List', () => {
  const r = run(['oc-get-all-list.yaml']);

  it('rewrites the legacy v1 DeploymentConfig and strips everything the server wrote', () => {
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/web');
    expect(dc.outcome).toBe('changed');
    const o = dc.object as KubeObject;
    expect(o.apiVersion).toBe('apps.openshift.io/v1');
    expect(o['status']).toBeUndefined();
    expect(o.metadata).toEqual({ annotations: { 'openshift.io/generated-by': 'OpenShiftNewApp' }, labels: { app: 'web' }, name: 'web' });
    expect(get(o, 'spec', 'triggers', 1, 'imageChangeParams')).toEqual({ automatic: true, containerNames: ['web'], from: { kind: 'ImageStreamTag', name: 'web:latest' } });
    expect(get(o, 'spec', 'template', 'metadata')).toEqual({ labels: { app: 'web', deploymentconfig: 'web' } });
    expect(dc.changes.join('\n')).toMatch(/apiVersion v1 → apps.openshift.io\/v1/);
    expect(dc.changes.join('\n')).toMatch(/lastTriggeredImage/);
  });

  it('lists the DC features served differently', () => {
    const notes = entry(r, 'deploymentconfig.apps.openshift.io/web').notes.join('\n');
    expect(notes).toMatch(/ImageChange trigger on ImageStreamTag web:latest needs the image trigger controller.*ImageStream web is part of this import/);
    expect(notes).toMatch(/OpenShift's internal registry/);
    expect(notes).toMatch(/revisionHistoryLimit/);
    expect(r.notes.join('\n')).toMatch(/TRIGGERED BY/);
  });

  it('rewrites the legacy ImageStream and drops its status and tag generations', () => {
    const is = entry(r, 'imagestream.image.openshift.io/web');
    expect(is.object?.apiVersion).toBe('image.openshift.io/v1');
    expect(is.object?.['status']).toBeUndefined();
    expect(get(is.object, 'spec', 'tags', 0)).toEqual({ name: 'latest', from: { kind: 'DockerImage', name: 'quay.io/example/web:1.0' }, importPolicy: {}, referencePolicy: { type: 'Source' } });
  });

  it('drops the allocated cluster IP of the Service', () => {
    const svc = entry(r, 'service/web').object;
    expect(get(svc, 'spec', 'clusterIP')).toBeUndefined();
    expect(get(svc, 'spec', 'clusterIPs')).toBeUndefined();
    expect(get(svc, 'spec', 'selector')).toEqual({ deploymentconfig: 'web' });
  });

  it('skips OpenShift-only kinds with a hint, and controller-owned objects', () => {
    const route = entry(r, 'route.route.openshift.io/web');
    expect(route).toMatchObject({ outcome: 'skipped', reason: 'Route (route.openshift.io) is served only by OpenShift' });
    expect(route.hint).toMatch(/Ingress.*Gateway API HTTPRoute.*host web-myproject.apps.example.com to service web port 8080-tcp with TLS termination edge/);
    expect(route.object).toBeUndefined();
    expect(entry(r, 'buildconfig.build.openshift.io/web').hint).toMatch(/build images in CI/);
    expect(entry(r, 'replicationcontroller/web-4').reason).toMatch(/DeploymentConfig\/web/);
    expect(entry(r, 'pod/web-4-abcde').outcome).toBe('skipped');
  });
});

describe('import of other export shapes', () => {
  // OpenShift 3.7 and earlier ran Kubernetes before 1.8: controllers named themselves in the
  // kubernetes.io/created-by annotation, not in an owner reference, so `oc get all` of that time
  // holds pods that look like anyone's. Applied, they would run next to what the DC makes.
  it('skips the pods an OpenShift 3.3 export made by controllers without owner references: RC pods (created-by), build pods, deployer pods', () => {
    const r = run(['openshift33-get-all.yaml']);
    expect(r.entries.map((e) => [e.ref, e.outcome, e.reason])).toEqual([
      ['deploymentconfig.apps.openshift.io/database', 'changed', undefined],
      ['pod/database-1-p4kr5', 'skipped', 'made by its controller ReplicationController/database-1 (named in the kubernetes.io/created-by annotation, as controllers did before Kubernetes 1.8), which creates it again on the new cluster'],
      ['pod/ruby-sample-build-1-build', 'skipped', 'the pod of Build ruby-sample-build-1, which only OpenShift runs'],
      ['pod/database-2-deploy', 'skipped', 'a pod OpenShift ran for rollout database-2 of a DeploymentConfig (no owner reference), which rolls out again on the new cluster'],
      ['pod/standalone', 'changed', undefined],
    ]);
  });

  it('processes a Template with --param values, generated values and ${{}} numbers', () => {
    const r = run(['template.yaml'], { APP_DOMAIN: 'apps.example.org', REPLICAS: '4' });
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/shop');
    expect(get(dc.object, 'spec', 'replicas')).toBe(4);
    expect(get(dc.object, 'metadata', 'labels')).toEqual({ app: 'shop', template: 'shop-shop' });
    expect(get(dc.object, 'spec', 'template', 'spec', 'containers', 0, 'env', 0, 'value')).toBe('https://shop.apps.example.org/');
    const secret = entry(r, 'secret/shop-db').object;
    expect(get(secret, 'stringData')).toEqual({ username: 'user0000', password: 'aaaaaaaaaaaa' });
    expect(get(secret, 'metadata', 'namespace')).toBeUndefined();
    expect(r.templateMessages).toEqual([{ template: 'shop', message: 'Created shop with 4 replicas.\nThe database password is in secret shop-db.' }]);
    expect(entry(r, 'route.route.openshift.io/shop').outcome).toBe('skipped');
  });

  it('reads multi-document YAML, skipping empty documents, and notes custom deployers and tagImages', () => {
    const r = run(['multi-doc.yaml']);
    expect(r.entries.map((e) => [e.ref, e.outcome, e.origin.document])).toEqual([
      ['configmap/settings', 'changed', 1],
      ['deploymentconfig.apps.openshift.io/worker', 'changed', 3],
      ['deploymentconfig.apps.openshift.io/batch', 'imported', 4],
      ['rolebinding.authorization.openshift.io/edit-team', 'skipped', 5],
    ]);
    expect(entry(r, 'deploymentconfig.apps.openshift.io/worker').notes.join('\n')).toMatch(/origin-deployer.*OpenShift's deployer/);
    expect(entry(r, 'deploymentconfig.apps.openshift.io/batch').notes.join('\n')).toMatch(/recreateParams.post.tagImages/);
    expect(entry(r, 'rolebinding.authorization.openshift.io/edit-team').hint).toMatch(/rbac.authorization.k8s.io\/v1/);
  });

  it('keeps hook failure policies OpenShift stored though they are none of Abort, Retry and Ignore, and says what they do', () => {
    const r = run(['hook-policies.yaml']);
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/rating-mongodb');
    expect(get(dc.object, 'spec', 'strategy', 'recreateParams', 'post', 'failurePolicy')).toBe('ignore');
    expect(get(dc.object, 'spec', 'strategy', 'recreateParams', 'pre', 'failurePolicy')).toBe('Sometimes');
    expect(dc.notes).toEqual(expect.arrayContaining([
      'spec.strategy.recreateParams.post.failurePolicy "ignore" is none of Abort, Retry, Ignore: as on OpenShift, a failure of this hook fails the rollout, without the Failed event (for "Ignore", write it so)',
      'spec.strategy.recreateParams.pre.failurePolicy "Sometimes" is none of Abort, Retry, Ignore: as on OpenShift, a failure of this hook fails the rollout, without the Failed event',
    ]));
  });

  it('keeps the later value of a key written twice, as OpenShift\'s YAML reader did, and reports it on the object it is in', () => {
    const r = run(['duplicate-keys.yaml']);
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/turbine-server');
    expect(get(dc.object, 'spec', 'template', 'spec', 'containers', 0, 'resources')).toEqual({ limits: { cpu: 1, memory: '2Gi' }, requests: { cpu: '100m', memory: '256Mi' } });
    expect(dc.changes).toContain('spec.template.spec.containers[0].resources is written twice in one mapping (line 26, column 11): the later value is kept, as OpenShift\'s YAML reader did');
    expect(entry(r, 'service/turbine-server').changes.join('\n')).not.toMatch(/twice/);
    expect(r.notes.join('\n')).not.toMatch(/twice/);
    // A duplicate outside every imported object (a Template's parameter) is a note of the import.
    const t = importObjects([{ source: 't.yaml', text: 'apiVersion: template.openshift.io/v1\nkind: Template\nmetadata: {name: t}\nparameters:\n- name: A\n  value: first\n  value: second\nobjects:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "${A}"}}\n' }], { params: new Map(), random: () => 0 });
    expect(get(t.entries[0]?.object, 'data', 'a')).toBe('second');
    expect(t.notes).toContain('t.yaml (document 1): parameters[0].value is written twice in one mapping (line 7, column 3): the later value is kept, as OpenShift\'s YAML reader did');
  });

  it('keeps the later value of a key written twice in a JSON object, as OpenShift\'s JSON decoder did, and reports it on the object', () => {
    const r = run(['duplicate-keys.json']);
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/json-twice');
    expect(get(dc.object, 'spec', 'template', 'spec', 'containers', 0, 'env')).toEqual([{ name: 'MODE', value: 'green' }]);
    expect(dc.changes).toEqual([
      'spec.template.spec.containers[0].env is written twice in one object (line 20, column 13): the later value is kept, as OpenShift\'s JSON decoder did',
    ]);
  });

  it('converts workloads of versions Kubernetes no longer serves, writing out what the old version defaulted differently, and reports each change', () => {
    const r = run(['openshift3-workloads.yaml']);
    expect(r.entries.map((e) => [e.ref, e.outcome])).toEqual([
      ['deployment.apps/catalogue', 'changed'], ['deployment.apps/carts', 'changed'], ['deployment.apps/orders', 'changed'],
      ['statefulset.apps/mssql', 'changed'], ['daemonset.apps/fluentd', 'changed'],
      ['networkpolicy.networking.k8s.io/allow-same-namespace', 'changed'], ['rolebinding.rbac.authorization.k8s.io/catalogue-view', 'changed'],
    ]);
    const catalogue = entry(r, 'deployment.apps/catalogue');
    expect(catalogue.object).toMatchObject({
      apiVersion: 'apps/v1',
      spec: { selector: { matchLabels: { name: 'catalogue' } }, revisionHistoryLimit: 2147483647, progressDeadlineSeconds: 2147483647, strategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } },
    });
    expect(get(catalogue.object, 'spec', 'rollbackTo')).toBeUndefined();
    expect(catalogue.changes).toEqual([
      'apiVersion extensions/v1beta1 → apps/v1 (Kubernetes no longer serves extensions/v1beta1)',
      'spec.selector: set to the template\'s labels {"name":"catalogue"} (extensions/v1beta1 defaulted it so; apps/v1 requires it)',
      'removed spec.rollbackTo (apps/v1 has no such field; `kubectl rollout undo` does it)',
      'spec.revisionHistoryLimit: 2147483647 (extensions/v1beta1 kept every old ReplicaSet; apps/v1 keeps 10)',
      'spec.progressDeadlineSeconds: 2147483647 (extensions/v1beta1 had no progress deadline; apps/v1\'s is 600 s)',
      'spec.strategy.rollingUpdate: maxUnavailable 1, maxSurge 1 (extensions/v1beta1\'s defaults; apps/v1\'s are 25%)',
    ]);
    expect(entry(r, 'deployment.apps/carts').object).toMatchObject({ apiVersion: 'apps/v1', spec: { selector: { matchLabels: { name: 'carts' } }, revisionHistoryLimit: 2 } });
    expect(get(entry(r, 'deployment.apps/carts').object, 'spec', 'strategy')).toBeUndefined();
    expect(entry(r, 'deployment.apps/orders').changes).toEqual(['apiVersion apps/v1beta2 → apps/v1 (Kubernetes no longer serves apps/v1beta2)']);
    expect(entry(r, 'statefulset.apps/mssql').object).toMatchObject({ apiVersion: 'apps/v1', spec: { selector: { matchLabels: { app: 'mssql' } }, updateStrategy: { type: 'OnDelete' } } });
    const fluentd = entry(r, 'daemonset.apps/fluentd');
    expect(fluentd.object).toMatchObject({ apiVersion: 'apps/v1', spec: { selector: { matchLabels: { component: 'fluentd' } }, updateStrategy: { type: 'OnDelete' } } });
    expect(get(fluentd.object, 'spec', 'templateGeneration')).toBeUndefined();
    expect(entry(r, 'networkpolicy.networking.k8s.io/allow-same-namespace').object?.apiVersion).toBe('networking.k8s.io/v1');
    expect(entry(r, 'rolebinding.rbac.authorization.k8s.io/catalogue-view').object?.apiVersion).toBe('rbac.authorization.k8s.io/v1');
  });

  it('converts the Ingresses, CronJob, disruption budgets and autoscalers of an OpenShift 4.8-era export as kube-apiserver did while it served both versions', () => {
    const r = run(['openshift4-removed-versions.yaml']);
    expect(r.entries.map((e) => [e.ref, e.outcome])).toEqual([
      ['deploymentconfig.apps.openshift.io/storefront', 'changed'], ['deploymentconfig.apps.openshift.io/storefront-worker', 'changed'], ['service/storefront', 'imported'],
      ['ingress.networking.k8s.io/storefront', 'changed'], ['ingress.networking.k8s.io/storefront-admin', 'changed'],
      ['cronjob.batch/storefront-cleanup', 'changed'], ['poddisruptionbudget.policy/storefront', 'changed'], ['poddisruptionbudget.policy/placeholder', 'changed'],
      ['horizontalpodautoscaler.autoscaling/storefront', 'changed'], ['horizontalpodautoscaler.autoscaling/storefront-memory', 'changed'],
    ]);
    const storefront = entry(r, 'ingress.networking.k8s.io/storefront');
    expect(storefront.object).toEqual({
      apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'storefront', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
      spec: {
        defaultBackend: { service: { name: 'storefront', port: { number: 8080 } } },
        rules: [{ host: 'storefront.example.com', http: { paths: [{ path: '/', pathType: 'ImplementationSpecific', backend: { service: { name: 'storefront', port: { name: 'http' } } } }] } }],
      },
    });
    expect(storefront.changes).toEqual([
      'apiVersion extensions/v1beta1 → networking.k8s.io/v1 (Kubernetes no longer serves extensions/v1beta1)',
      'spec.backend → spec.defaultBackend, serviceName/servicePort → service.name/service.port (networking.k8s.io/v1\'s shape)',
      '1 path backend: serviceName/servicePort → service.name/service.port (networking.k8s.io/v1\'s shape)',
      'spec.rules[0].http.paths[0]: pathType ImplementationSpecific (v1beta1\'s default for a path without a type; networking.k8s.io/v1 requires one)',
    ]);
    const admin = entry(r, 'ingress.networking.k8s.io/storefront-admin');
    expect(get(admin.object, 'spec', 'rules', 0, 'http', 'paths')).toEqual([
      { path: '/admin', pathType: 'Prefix', backend: { service: { name: 'storefront', port: { number: 8080 } } } },
      { path: '/metrics', pathType: 'ImplementationSpecific', backend: { service: { name: 'storefront', port: { number: 8080 } } } },
    ]);
    expect(get(admin.object, 'spec', 'tls')).toEqual([{ hosts: ['admin.storefront.example.com'], secretName: 'storefront-admin-tls' }]);
    expect(admin.changes.slice(1)).toEqual([
      '2 path backends: serviceName/servicePort → service.name/service.port (networking.k8s.io/v1\'s shape)',
      'spec.rules[0].http.paths[1]: pathType ImplementationSpecific (v1beta1\'s default for a path without a type; networking.k8s.io/v1 requires one)',
    ]);
    expect(entry(r, 'cronjob.batch/storefront-cleanup').changes).toEqual(['apiVersion batch/v1beta1 → batch/v1 (Kubernetes no longer serves batch/v1beta1)']);
    expect(entry(r, 'poddisruptionbudget.policy/storefront').object?.['spec']).toEqual({ minAvailable: 1, selector: { matchLabels: { app: 'storefront' } } });
    const placeholder = entry(r, 'poddisruptionbudget.policy/placeholder');
    expect(placeholder.object?.['spec']).toEqual({ maxUnavailable: 0, selector: { matchExpressions: [{ key: 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match', operator: 'Exists' }] } });
    expect(placeholder.changes[1]).toMatch(/^spec.selector \{\} → a selector that matches no pod/);
    const hpa = entry(r, 'horizontalpodautoscaler.autoscaling/storefront');
    expect(hpa.object?.['spec']).toEqual({
      scaleTargetRef: { apiVersion: 'apps.openshift.io/v1', kind: 'DeploymentConfig', name: 'storefront' }, minReplicas: 1, maxReplicas: 4,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } },
        { type: 'Pods', pods: { metric: { name: 'http_requests' }, target: { type: 'AverageValue', averageValue: '50' } } },
      ],
    });
    expect(hpa.changes).toEqual([
      'apiVersion autoscaling/v2beta1 → autoscaling/v2 (Kubernetes no longer serves autoscaling/v2beta1)',
      'spec.metrics[0], spec.metrics[1]: metric targets in autoscaling/v2\'s shape (target.type and its value, metric.name; kube-apiserver converted them so)',
      'spec.scaleTargetRef.apiVersion v1 → apps.openshift.io/v1 (OpenShift\'s autoscaler resolved a DeploymentConfig without an API group; Kubernetes needs the group)',
    ]);
    const memory = entry(r, 'horizontalpodautoscaler.autoscaling/storefront-memory');
    expect(memory.changes).toEqual(['apiVersion autoscaling/v2beta2 → autoscaling/v2 (Kubernetes no longer serves autoscaling/v2beta2)']);
    expect(get(memory.object, 'spec', 'metrics')).toEqual([{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } }]);
  });

  it('converts the rarer shapes of removed versions: v2beta1 Object, External and ContainerResource metrics, a PDB selecting every pod, cluster-scoped classes', () => {
    const convert = (obj: KubeObject, from: string, kind: string) => {
      const to = replacementVersion(from, kind);
      if (!to) throw new Error(`no conversion for ${from} ${kind}`);
      return { changes: convertRemovedVersion(obj, from, kind, to), obj };
    };
    const hpa = convert({ apiVersion: 'autoscaling/v2beta1', kind: 'HorizontalPodAutoscaler', spec: { metrics: [
      { type: 'Object', object: { target: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, metricName: 'requests', targetValue: '2k' } },
      { type: 'Object', object: { target: { kind: 'Service', name: 'web' }, metricName: 'rps', targetValue: '0', averageValue: '10', selector: { matchLabels: { a: 'b' } } } },
      { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'jobs' } }, targetValue: '30' } },
      { type: 'External', external: { metricName: 'queue', targetAverageValue: '5' } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', targetAverageValue: '200m' } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ] } }, 'autoscaling/v2beta1', 'HorizontalPodAutoscaler');
    expect(get(hpa.obj, 'spec', 'metrics')).toEqual([
      { type: 'Object', object: { describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, metric: { name: 'requests' }, target: { type: 'Value', value: '2k' } } },
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 'web' }, metric: { name: 'rps', selector: { matchLabels: { a: 'b' } } }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'Value', value: '30' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '5' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'AverageValue', averageValue: '200m' } } },
      // Already in the new shape (written for a later version): left alone.
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    expect(hpa.changes[1]).toMatch(/^spec.metrics\[0\], spec.metrics\[1\], spec.metrics\[2\], spec.metrics\[3\], spec.metrics\[4\]: /);
    const all = convert({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchExpressions: [{ key: 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match', operator: 'DoesNotExist' }] } } }, 'policy/v1beta1', 'PodDisruptionBudget');
    expect(all.obj['spec']).toEqual({ minAvailable: 1, selector: {} });
    const none = convert({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchLabels: {}, matchExpressions: [] } } }, 'policy/v1beta1', 'PodDisruptionBudget');
    expect(get(none.obj, 'spec', 'selector', 'matchExpressions', 0, 'operator')).toBe('Exists');
    // Only a selector present and empty selected nothing; without one, both versions select no pod.
    expect(convert({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1 } }, 'policy/v1beta1', 'PodDisruptionBudget').changes).toHaveLength(1);
    for (const [from, kind, to] of [['networking.k8s.io/v1beta1', 'IngressClass', 'networking.k8s.io/v1'], ['scheduling.k8s.io/v1beta1', 'PriorityClass', 'scheduling.k8s.io/v1'], ['storage.k8s.io/v1beta1', 'StorageClass', 'storage.k8s.io/v1']] as const) {
      expect(classify(from, kind)).toEqual({ type: 'kubernetes', apiVersion: to, convertedFrom: from });
    }
    expect(classify('batch/v2alpha1', 'CronJob')).toEqual({ type: 'invalid', message: expect.stringMatching(/batch\/v2alpha1 CronJob kept every finished Job/) });
  });

  it('writes its YAML for readers of YAML 1.1 (kubectl, oc): strings that they would read as numbers or booleans are quoted', () => {
    const out = formatObjects([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'no', b: 'on', c: '0400', d: '1_000', e: 'y' }, mode: 256 }], 'yaml');
    expect(out).toContain("a: 'no'\n  b: 'on'\n  c: '0400'\n  d: '1_000'\n  e: 'y'\nmode: 256\n");
    expect(decodeDocuments(out, 'out.yaml').objects[0]?.object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'no', b: 'on', c: '0400', d: '1_000', e: 'y' }, mode: 256 });
  });

  it('reads concatenated JSON objects and keeps a headless Service headless', () => {
    const r = run(['export.json']);
    expect(entry(r, 'deploymentconfig.apps.openshift.io/api').object?.['status']).toBeUndefined();
    expect(get(entry(r, 'service/api').object, 'spec', 'clusterIP')).toBe('None');
  });

  it('processes a legacy v1 JSON Template with ${{}} booleans and objects', () => {
    const r = run(['legacy-template.json']);
    const dc = r.entries[0]?.object;
    expect(dc?.apiVersion).toBe('apps.openshift.io/v1');
    expect(get(dc, 'metadata', 'name')).toBe('cron-aaaaaaaa');
    expect(get(dc, 'spec', 'paused')).toBe(true);
    expect(get(dc, 'spec', 'template', 'spec', 'containers', 0, 'resources', 'limits')).toEqual({ cpu: '200m', memory: '128Mi' });
  });
});

describe('bad input stops the import and names the problem', () => {
  it('unparseable YAML', () => {
    expect(problemsOf(() => run(['bad/unparseable.yaml']))).toEqual([expect.stringMatching(/^cannot parse YAML at line 11, column 1: missed comma/)]);
  });

  it('unknown and removed apiVersions, every one of them', () => {
    expect(problemsOf(() => run(['bad/unknown-apiversion.yaml']))).toEqual([
      'apiVersion "policy/v1beta1" (kind PodSecurityPolicy) is no longer served by Kubernetes; use Pod Security Admission for a PodSecurityPolicy, which has no successor',
      expect.stringMatching(/unknown kind Frobnicator for apiVersion v1/),
    ]);
  });

  // juanjmerono/openshift3 (OpenShift 3.0): a Template whose objects include a ServiceList and a
  // BuildConfigList. oc created the processed output through kubectl's resource builder, which
  // flattens lists inside lists; here they were refused as unknown kinds.
  it('flattens typed lists a Template makes into their items, substituted, located below the list', () => {
    const text = JSON.stringify({
      apiVersion: 'v1', kind: 'Template', metadata: { name: 'web' }, labels: { template: 'web' },
      parameters: [{ name: 'NAME', value: 'shop' }],
      objects: [
        { apiVersion: 'v1', kind: 'ServiceList', metadata: { name: '${NAME}' }, items: [
          { apiVersion: 'v1', kind: 'Service', metadata: { name: '${NAME}-a' }, spec: { ports: [{ port: 80 }] } },
          { kind: 'Service', metadata: { name: '${NAME}-b' }, spec: { ports: [{ port: 81 }] } },
        ] },
        { apiVersion: 'v1', kind: 'RouteList', items: [{ apiVersion: 'v1', kind: 'Route', metadata: { name: '${NAME}' }, spec: { to: { name: '${NAME}-a' } } }] },
      ],
    });
    const r = importObjects([{ source: 't.json', text }], { params: new Map(), random: () => 0 });
    expect(r.entries.map((e) => [e.ref, e.outcome, formatOrigin(e.origin)])).toEqual([
      ['service/shop-a', 'imported', 't.json (document 1, objects[0].items[0])'],
      ['service/shop-b', 'imported', 't.json (document 1, objects[0].items[1])'],
      ['route.route.openshift.io/shop', 'skipped', 't.json (document 1, objects[1].items[0])'],
    ]);
  });

  it('an item of a list a Template makes keeps what its ${{NAME}} values were, for the type check to name them', () => {
    const text = JSON.stringify({
      apiVersion: 'v1', kind: 'Template', metadata: { name: 'web' }, parameters: [{ name: 'PORT', value: 'http' }],
      objects: [{ apiVersion: 'v1', kind: 'ServiceList', items: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: '${{PORT}}' }] } }] }],
    });
    const r = importObjects([{ source: 't.json', text }], { params: new Map(), random: () => 0 });
    expect(r.entries.map((e) => [e.ref, [...(e.notJsonValues ?? [])]])).toEqual([['service/web', [['http', ['PORT']]]]]);
  });

  it('a name still holding a reference after a Template\'s substitution is refused saying where such a reference comes from', () => {
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'Template', metadata: { name: 'omd' },
      parameters: [{ name: 'NAME', value: 'omd-${FLAVOR}' }, { name: 'FLAVOR', value: 'centos' }],
      objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: '${NAME}-${FLAVOR}' }, spec: { ports: [{ port: 80 }] } }] });
    expect(problemsOf(() => importObjects([{ source: 't.json', text }], { params: new Map(), random: () => 0 }))).toEqual([
      'Service "omd-centos-${FLAVOR}": metadata.name holds the Template parameter reference ${FLAVOR}, which nothing substituted: Template "omd" declares no such parameter, '
        + 'or a parameter\'s value holds it (values are not substituted, as in oc process): give that parameter a value without it (--param)',
    ]);
  });

  // `oc get templates -o yaml` of a catalogue: alternative Templates make the same objects.
  it('two Templates of one List that make the same object: refused naming both places inside the List and both Templates', () => {
    const tpl = (name: string) => ({ apiVersion: 'template.openshift.io/v1', kind: 'Template', metadata: { name }, objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'mysql' }, spec: { ports: [{ port: 3306 }] } }] });
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [tpl('mysql-ephemeral'), tpl('mysql-persistent')] });
    expect(problemsOf(() => importObjects([{ source: 't.json', text }], { params: new Map(), random: () => 0 }))).toEqual([
      'Service "mysql" is defined twice (first at t.json (document 1, items[0].objects[0])): Templates "mysql-ephemeral" and "mysql-persistent" both make it; choose one with --template NAME (oc process processes only the first Template of a file)',
    ]);
  });

  // radanalyticsio/oshinko-s2i's resources.yaml: a List of Templates to install (oc create),
  // among them alternatives that make the same objects; oc new-app --template picks one.
  describe('--template: which Templates of the input are processed', () => {
    const tpl = (name: string, param = 'NAME') => ({ apiVersion: 'template.openshift.io/v1', kind: 'Template', metadata: { name },
      parameters: [{ name: param, value: name }], objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } }] });
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [tpl('web-secure', 'SECURE'), tpl('web'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'oshinko' } }] });
    const run2 = (templates: string[], params: Record<string, string> = {}) =>
      importObjects([{ source: 'l.json', text: list }], { params: new Map(Object.entries(params)), random: () => 0, templates: new Set(templates) });

    it('processes only the named Templates; the others are reported skipped, and other objects import as always', () => {
      const r = run2(['web'], { NAME: 'x' });
      expect(r.entries.map((e) => [e.ref, e.outcome, e.reason])).toEqual([
        ['template.template.openshift.io/web-secure', 'skipped', 'not processed: --template names other Templates of the input'],
        ['service/web', 'imported', undefined],
        ['serviceaccount/oshinko', 'imported', undefined],
      ]);
    });

    it('refuses a name no Template of the input has, and a --param only an unselected Template declares', () => {
      expect(problemsOf(() => run2(['nope']))).toEqual(['--template nope: the input has no Template of that name (it has web-secure, web)']);
      expect(problemsOf(() => run2(['web'], { SECURE: 'y' }))).toEqual(['unknown parameter name "SECURE": the templates declare NAME']);
    });

    it('without it, the duplicate error says which Templates make the object and offers --template', () => {
      expect(problemsOf(() => run2([]))[0]).toContain('Templates "web-secure" and "web" both make it; choose one with --template NAME (oc process processes only the first Template of a file)');
    });
  });

  it('a required parameter without value', () => {
    expect(problemsOf(() => run(['bad/missing-required.yaml']))).toEqual([expect.stringContaining('parameter APP_DOMAIN is required and must be specified')]);
  });

  it('an unknown --param, or --param without a Template', () => {
    expect(problemsOf(() => run(['template.yaml'], { APP_DOMAIN: 'x', NOPE: '1' }))).toEqual([expect.stringMatching(/^unknown parameter name "NOPE"/)]);
    expect(problemsOf(() => run(['export.json'], { X: '1' }))).toEqual(['parameter X given, but the input has no Template']);
  });

  it('the same object twice', () => {
    expect(problemsOf(() => run(['export.json', 'export.json']))).toEqual([
      expect.stringMatching(/DeploymentConfig "api" is defined twice \(first at export.json \(document 1\)\)/),
      expect.stringMatching(/Service "api" is defined twice/),
    ]);
  });

  it('objects without kind or name (generateName alone is fine), and sequences of non-objects', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: x-}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {a: b}}\n---\napiVersion: v1\nmetadata: {name: y}\n---\n[1, [2]]\n';
    expect(problemsOf(() => importObjects([{ source: 's', text }], { params: new Map(), random: () => 0 }))).toEqual([
      'ConfigMap has neither metadata.name nor metadata.generateName',
      'kind is missing',
      'expected an object with apiVersion and kind, got number',
      'expected an object with apiVersion and kind, got a list',
    ]);
  });
});

describe('a Template\'s parameter reference left in a name', () => {
  // A List cut from a Template (or an undeclared parameter) keeps `${NAME}`: OpenShift refused such
  // a name, and the server's answer to an apply of it names the URL, not the field.
  it('is refused before the cluster is asked, naming the reference (not in an RBAC name, where `${X}` is a valid name)', () => {
    const text = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: "${NAME}-config"}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {generateName: "${PREFIX}-"}\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleBinding\n  metadata: {name: "${NAME}"}\n  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n';
    expect(problemsOf(() => importObjects([{ source: 's', text }], { params: new Map(), random: () => 0 }))).toEqual([
      'ConfigMap "${NAME}-config": metadata.name holds the Template parameter reference ${NAME}, which nothing substituted: import the Template it came from (with --param), or write the name',
      'ConfigMap "${PREFIX}-": metadata.generateName holds the Template parameter reference ${PREFIX}, which nothing substituted: import the Template it came from (with --param), or write the name',
    ]);
  });
});

describe('import of null fields (a key with nothing after it)', () => {
  const r = run(['null-fields.yaml']);

  it('removes each null field, makes a null label "" and a null Quantity in a map "0", as OpenShift read them, and reports every one', () => {
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/cache');
    expect(dc.outcome).toBe('changed');
    expect(dc.changes).toEqual([
      'spec.template.spec.containers[0].resources.limits["cpu"]: null → "0" (a Quantity: OpenShift read a null one as zero and stored "0")',
      'metadata.labels["tier"]: null → "" (as OpenShift read a null map value)',
      'removed spec.strategy.rollingParams: null (OpenShift read a null field as absent)',
      'removed spec.strategy.resources: null (OpenShift read a null field as absent)',
      'removed spec.template.spec.containers[0].args: null (OpenShift read a null field as absent)',
      'removed spec.template.spec.containers[0].env: null (OpenShift read a null field as absent)',
      'removed spec.template.spec.volumes: null (OpenShift read a null field as absent)',
      'removed spec.triggers: null (OpenShift read a null field as absent)',
    ]);
    const o = dc.object as KubeObject;
    expect(get(o, 'metadata', 'labels')).toEqual({ app: 'cache', tier: '' });
    expect(get(o, 'spec', 'strategy')).toEqual({ type: 'Rolling' });
    // "0", not the "" of a null string, which the CRD's Quantity pattern refuses.
    expect(get(o, 'spec', 'template', 'spec')).toEqual({ containers: [{ image: 'registry.example.com/cache:1', name: 'cache', resources: { limits: { cpu: '0', memory: '64Mi' } } }] });
    expect(Object.keys(get(o, 'spec') as object)).toEqual(['replicas', 'selector', 'strategy', 'template']);
  });

  it('leaves nulls of kinds the API server reads itself (native kinds decode null as absent) alone', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a:\ndata:\n  k:\n';
    const cm = importObjects([{ source: 'cm.yaml', text }], { params: new Map(), random: () => 0 }).entries[0]!;
    expect(cm.outcome).toBe('imported');
    expect(get(cm.object, 'data')).toEqual({ k: null });
  });
});

describe('import of Quantities written as fractional numbers (`cpu: 0.5`)', () => {
  const r = run(['fractional-quantities.yaml']);

  it('writes each fractional number at a Quantity as its digits in a string, as OpenShift read it, and reports every one', () => {
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/worker');
    expect(dc.outcome).toBe('changed');
    expect(dc.changes).toEqual([
      'spec.strategy.resources.limits["cpu"]: 0.1 → "0.1" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.1 as the same quantity)',
      'spec.template.spec.initContainers[0].resources.limits["cpu"]: 1.5 → "1.5" (a Quantity: the CRD takes a number only as an integer; OpenShift read 1.5 as the same quantity)',
      'spec.template.spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: 0.001 → "0.001" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.001 as the same quantity)',
      'spec.template.spec.containers[0].resources.limits["cpu"]: 0.75 → "0.75" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.75 as the same quantity)',
      'spec.template.spec.containers[0].resources.requests["cpu"]: 0.25 → "0.25" (a Quantity: the CRD takes a number only as an integer; OpenShift read 0.25 as the same quantity)',
      'spec.template.spec.volumes[0].emptyDir.sizeLimit: 1.5 → "1.5" (a Quantity: the CRD takes a number only as an integer; OpenShift read 1.5 as the same quantity)',
    ]);
    const spec = get(dc.object, 'spec', 'template', 'spec');
    // Integers and strings are Quantities the CRD takes: they stay as they were written.
    expect(get(spec, 'containers', 0, 'resources')).toEqual({ limits: { cpu: '0.75', memory: '512Mi' }, requests: { cpu: '0.25', memory: 268435456 } });
    expect(get(dc.object, 'spec', 'strategy', 'resources')).toEqual({ limits: { cpu: '0.1' } });
  });

  it('leaves numbers outside Quantities, and Quantities of kinds the API server decodes itself, alone', () => {
    const dc = entry(r, 'deploymentconfig.apps.openshift.io/worker');
    expect(get(dc.object, 'spec', 'replicas')).toBe(1);
    const text = 'apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: l\nspec:\n  limits:\n  - type: Container\n    max: {cpu: 0.5}\n';
    const lr = importObjects([{ source: 'lr.yaml', text }], { params: new Map(), random: () => 0 }).entries[0]!;
    expect(lr.outcome).toBe('imported');
    expect(get(lr.object, 'spec', 'limits', 0, 'max')).toEqual({ cpu: 0.5 });
  });
});

describe('ReplicationControllers of an OpenShift 3 export (no owner references)', () => {
  const text = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ReplicationController
  metadata:
    name: database-2
    labels: {template: application-template-stibuild}
    annotations:
      openshift.io/deployment-config.name: database
      openshift.io/deployment.phase: Running
      openshift.io/deployment-config.latest-version: "2"
  spec:
    replicas: 1
    selector: {name: database, deployment: database-2}
    template:
      metadata: {labels: {name: database, deployment: database-2}}
      spec: {containers: [{name: db, image: registry.example.com/db:1}]}
- apiVersion: v1
  kind: ReplicationController
  metadata: {name: plain}
  spec:
    replicas: 1
    selector: {app: plain}
    template:
      metadata: {labels: {app: plain}}
      spec: {containers: [{name: c, image: registry.example.com/plain:1}]}
`;
  const r = importObjects([{ source: 'export.yaml', text }], { params: new Map(), random: () => 0 });

  it('skips an RC a DC made, as the owned RCs of newer exports are: applied, it ran its pods next to the DC\'s own rollout', () => {
    const rc = entry(r, 'replicationcontroller/database-2');
    expect(rc.outcome).toBe('skipped');
    expect(rc.reason).toBe('a rollout of DeploymentConfig database (made by OpenShift without an owner reference), which rolls out again on the new cluster');
  });

  it('imports an RC nobody made', () => {
    expect(entry(r, 'replicationcontroller/plain').outcome).toBe('imported');
  });
});

describe('import of an OpenShift 4 project export (what the cluster writes into every project)', () => {
  const r = run(['openshift4-project-export.yaml']);

  it('skips kube-root-ca.crt and OpenShift\'s service CA bundle, which the new cluster writes itself (applied, kube-root-ca.crt conflicts with its publisher)', () => {
    expect(entry(r, 'configmap/kube-root-ca.crt')).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^published in every namespace by kube-controller-manager/) });
    expect(entry(r, 'configmap/openshift-service-ca.crt')).toMatchObject({ outcome: 'skipped', hint: expect.stringMatching(/cert-manager/) });
    expect(entry(r, 'configmap/shop-config').outcome).toBe('changed');
  });

  it('skips the three RoleBindings OpenShift makes in every project, and only those (a binding of another role under the same name is the project\'s own)', () => {
    for (const name of ['system:deployers', 'system:image-builders', 'system:image-pullers']) {
      expect(entry(r, `rolebinding.rbac.authorization.k8s.io/${name}`).outcome).toBe('skipped');
    }
    const own = importObjects([{ source: 'rb.yaml', text: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "system:deployers"}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}\nsubjects: [{kind: User, name: alice}]\n' }], { params: new Map(), random: () => 0 });
    expect(own.entries[0]!.outcome).toBe('imported');
  });

  it('makes service account subjects of the exported project mean the namespace it is imported into; other namespaces stay; the project\'s group is a note', () => {
    const rb = entry(r, 'rolebinding.rbac.authorization.k8s.io/shop-app-view');
    expect(get(rb.object, 'subjects')).toEqual([
      { kind: 'ServiceAccount', name: 'shop' },
      { kind: 'ServiceAccount', name: 'ci', namespace: 'tools' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:serviceaccounts:shop' },
    ]);
    expect(rb.changes).toContain('removed subjects[0].namespace "shop" (the exported project; a service account without one is the binding\'s namespace\'s)');
    expect(rb.notes).toEqual(['subjects[2] is the group of the service accounts of project shop: imported into another namespace, it still names that one (write system:serviceaccounts:<namespace>)']);
  });

  it('skips the registry credential OpenShift 4.16+ generates for a service account (no token secret, its own annotation) and drops the account\'s references to it', () => {
    expect(entry(r, 'secret/shop-dockercfg-x7k2p')).toMatchObject({ outcome: 'skipped', reason: 'a registry credential generated by OpenShift for service account shop' });
    const sa = entry(r, 'serviceaccount/shop');
    expect([get(sa.object, 'imagePullSecrets'), get(sa.object, 'metadata', 'annotations')]).toEqual([undefined, {}]);
    expect(sa.changes).toContain('removed server-written fields: metadata.uid, metadata.resourceVersion, imagePullSecrets (generated entry), metadata.annotations["openshift.io/internal-registry-pull-secret-ref"] (generated entry)');
  });

  it('notes NetworkPolicies that admit OpenShift\'s own namespaces by labels only OpenShift sets (both label forms); others have no note', () => {
    expect(entry(r, 'networkpolicy.networking.k8s.io/allow-from-openshift-ingress').notes).toEqual([
      'its namespaceSelector network.openshift.io/policy-group=ingress selects namespaces by a label OpenShift puts on its own (router, monitoring); no namespace here has it, so the rule admits nothing until you label the namespace it means (or select it by kubernetes.io/metadata.name)',
    ]);
    expect(entry(r, 'networkpolicy.networking.k8s.io/allow-from-openshift-monitoring').notes).toEqual([expect.stringMatching(/^its namespaceSelector policy-group\.network\.openshift\.io\/monitoring selects/)]);
    expect(entry(r, 'networkpolicy.networking.k8s.io/allow-same-namespace').notes).toEqual([]);
  });

  it('notes what OpenShift\'s SCCs did for the project\'s pods (a UID from its range; an enforced Pod Security level they met), which nothing does here', () => {
    // `oc get namespace shop -o yaml` on OpenShift 4 (a Namespace applies into no namespace, so it
    // is not in the shared fixture that the e2e test applies).
    const ns = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  uid: 8c7d7d0e-6d1a-4d5b-9c59-1a2b3c4d5e00
  annotations: {openshift.io/requester: developer, openshift.io/sa.scc.mcs: "s0:c26,c15", openshift.io/sa.scc.supplemental-groups: 1000680000/10000, openshift.io/sa.scc.uid-range: 1000680000/10000}
  labels: {kubernetes.io/metadata.name: shop, pod-security.kubernetes.io/audit: restricted, pod-security.kubernetes.io/warn: restricted}
spec: {finalizers: [kubernetes]}
status: {phase: Active}
`;
    const notesOf = (text: string) => importObjects([{ source: 'ns.yaml', text }], { params: new Map(), random: () => 0 }).entries[0]!.notes;
    expect(notesOf(ns)).toEqual([
      'OpenShift ran this project\'s pods as a UID from 1000680000/10000 (annotation openshift.io/sa.scc.uid-range, by its restricted SCC); here a pod runs as its image\'s user unless the template sets securityContext.runAsUser',
    ]);
    expect(notesOf(ns.replace('pod-security.kubernetes.io/warn', 'pod-security.kubernetes.io/enforce'))).toEqual([
      expect.stringMatching(/^OpenShift ran this project's pods as a UID/),
      expect.stringMatching(/^label pod-security.kubernetes.io\/enforce=restricted: OpenShift's SCC admission made pods meet it/),
    ]);
  });

  it('says what OpenShift\'s service CA operator did that nothing does here (injected bundle, serving certificate and its secret)', () => {
    expect(entry(r, 'configmap/shop-trust').notes).toEqual([expect.stringMatching(/^OpenShift's service CA operator wrote the service CA bundle into this ConfigMap/)]);
    expect(entry(r, 'service/shop').notes).toEqual([expect.stringMatching(/generated the TLS secret shop-tls for this Service/)]);
    expect(entry(r, 'secret/shop-tls').notes).toEqual([expect.stringMatching(/^a serving certificate OpenShift's service CA operator made for Service shop/)]);
    expect(entry(r, 'configmap/shop-config').notes).toEqual([]);
  });
});

describe('import of a Template that declares a parameter twice', () => {
  const text = JSON.stringify({
    apiVersion: 'template.openshift.io/v1', kind: 'Template', metadata: { name: 'jenkins' },
    parameters: [{ name: 'GITHUB_USERNAME', value: 'octo', required: true }, { name: 'GITHUB_USERNAME', value: '' }],
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'jenkins' }, data: { user: '${GITHUB_USERNAME}' } }],
  });
  const r = importObjects([{ source: 'jenkins.json', text }], { params: new Map(), random: () => 0 });

  it('imports it with the value OpenShift substituted, and the report says which declaration gave it', () => {
    expect(get(entry(r, 'configmap/jenkins').object, 'data')).toEqual({ user: '' });
    const report = formatReport(r);
    expect(report).toContain('note: jenkins.json (document 1, parameters[1]): Template "jenkins": parameter GITHUB_USERNAME is declared 2 times');
  });
});
