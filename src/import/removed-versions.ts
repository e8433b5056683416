/**
 * Kubernetes kinds whose API version Kubernetes (and OpenShift 4) no longer serves but OpenShift
 * 3.11 and 4.x exports and templates still carry (`extensions/v1beta1` Deployments and Ingresses,
 * `apps/v1beta1` StatefulSets, `batch/v1beta1` CronJobs, `policy/v1beta1` PodDisruptionBudgets,
 * `autoscaling/v2beta1` autoscalers, `rbac.authorization.k8s.io/v1beta1` bindings). Each is
 * rewritten to the version that replaced it, keeping what the old version meant, as kube-apiserver
 * converted it while it still served both: where the old version defaulted a field differently
 * from the new one (extensions/v1beta1 kept every old ReplicaSet, had no progress deadline and
 * replaced pods one at a time; the old StatefulSets and DaemonSets did not update their pods on
 * their own; an Ingress path without a type was implementation-specific; an empty PDB selector
 * selected no pod), the old default is written out; a field that changed shape (an Ingress
 * backend, an autoscaler's metric targets) is rewritten in the new shape; a field the new version
 * lacks is removed. Each change is reported. Pure: it mutates the object given and returns the
 * report lines.
 */
import { isObject, type KubeObject } from './types.js';

const MaxInt32 = 2147483647;

/** `<apiVersion> <kind>` → the apiVersion that replaced it, for the kinds converted here. */
const replacements: Record<string, string> = {};
const replaced = (from: string[], kinds: string[], to: string) => {
  for (const f of from) for (const k of kinds) replacements[`${f} ${k}`] = to;
};
replaced(['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'], ['Deployment'], 'apps/v1');
replaced(['extensions/v1beta1', 'apps/v1beta2'], ['DaemonSet', 'ReplicaSet'], 'apps/v1');
replaced(['apps/v1beta1', 'apps/v1beta2'], ['StatefulSet'], 'apps/v1');
replaced(['extensions/v1beta1'], ['NetworkPolicy'], 'networking.k8s.io/v1');
replaced(['rbac.authorization.k8s.io/v1beta1'], ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'], 'rbac.authorization.k8s.io/v1');
replaced(['extensions/v1beta1', 'networking.k8s.io/v1beta1'], ['Ingress'], 'networking.k8s.io/v1');
replaced(['networking.k8s.io/v1beta1'], ['IngressClass'], 'networking.k8s.io/v1');
// batch/v1beta1 CronJobs have batch/v1's shape and defaults (batch/v2alpha1, never served by
// default, kept every finished Job and is not converted).
replaced(['batch/v1beta1'], ['CronJob'], 'batch/v1');
replaced(['policy/v1beta1'], ['PodDisruptionBudget'], 'policy/v1');
replaced(['autoscaling/v2beta1', 'autoscaling/v2beta2'], ['HorizontalPodAutoscaler'], 'autoscaling/v2');
replaced(['scheduling.k8s.io/v1beta1'], ['PriorityClass'], 'scheduling.k8s.io/v1');
replaced(['storage.k8s.io/v1beta1'], ['StorageClass'], 'storage.k8s.io/v1');

/** The apiVersion that replaced `apiVersion` for `kind`, when import converts it. */
export function replacementVersion(apiVersion: string, kind: string): string | undefined {
  return replacements[`${apiVersion} ${kind}`];
}

const record = (parent: Record<string, unknown>, key: string): Record<string, unknown> => {
  if (!isObject(parent[key])) parent[key] = {};
  return parent[key] as Record<string, unknown>;
};

/**
 * Rewrites `obj` (of `kind`, written as `from`) for `to` (replacementVersion) and returns one
 * report line per change, the apiVersion first.
 */
export function convertRemovedVersion(obj: KubeObject, from: string, kind: string, to: string): string[] {
  const changes = [`apiVersion ${from} → ${to} (Kubernetes no longer serves ${from})`];
  obj.apiVersion = to;
  const spec = isObject(obj['spec']) ? obj['spec'] : undefined;
  if (!spec) return changes;
  if (kind === 'Ingress') return [...changes, ...convertIngressSpec(spec)];
  if (kind === 'PodDisruptionBudget') return [...changes, ...convertDisruptionBudgetSelector(spec)];
  if (kind === 'HorizontalPodAutoscaler' && from === 'autoscaling/v2beta1') return [...changes, ...convertAutoscalerMetrics(spec)];
  if (!['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'].includes(kind)) return changes;

  // Before apps/v1beta2 a missing selector was the template's labels; apps/v1 requires one.
  const templateLabels = isObject(spec['template']) && isObject(spec['template']['metadata']) && isObject(spec['template']['metadata']['labels'])
    ? spec['template']['metadata']['labels'] : undefined;
  if (spec['selector'] == null && templateLabels && from !== 'apps/v1beta2') {
    spec['selector'] = { matchLabels: { ...templateLabels } };
    changes.push(`spec.selector: set to the template's labels ${JSON.stringify(templateLabels)} (${from} defaulted it so; apps/v1 requires it)`);
  }

  if (kind === 'Deployment' && from !== 'apps/v1beta2') {
    if ('rollbackTo' in spec) {
      delete spec['rollbackTo'];
      changes.push('removed spec.rollbackTo (apps/v1 has no such field; `kubectl rollout undo` does it)');
    }
    const oldHistory = from === 'extensions/v1beta1' ? MaxInt32 : 2;
    if (spec['revisionHistoryLimit'] == null) {
      spec['revisionHistoryLimit'] = oldHistory;
      changes.push(`spec.revisionHistoryLimit: ${oldHistory} (${from === 'extensions/v1beta1' ? 'extensions/v1beta1 kept every old ReplicaSet' : 'apps/v1beta1 kept 2 old ReplicaSets'}; apps/v1 keeps 10)`);
    }
    if (from === 'extensions/v1beta1') {
      if (spec['progressDeadlineSeconds'] == null) {
        spec['progressDeadlineSeconds'] = MaxInt32;
        changes.push(`spec.progressDeadlineSeconds: ${MaxInt32} (extensions/v1beta1 had no progress deadline; apps/v1's is 600 s)`);
      }
      const strategy = record(spec, 'strategy');
      if (strategy['type'] == null || strategy['type'] === 'RollingUpdate') {
        const rolling = record(strategy, 'rollingUpdate');
        const set = (['maxUnavailable', 'maxSurge'] as const).filter((k) => rolling[k] == null);
        for (const k of set) rolling[k] = 1;
        if (set.length) changes.push(`spec.strategy.rollingUpdate: ${set.map((k) => `${k} 1`).join(', ')} (extensions/v1beta1's defaults; apps/v1's are 25%)`);
      }
    }
  }

  // extensions/v1beta1 DaemonSets and apps/v1beta1 StatefulSets replaced pods only when deleted.
  if ((kind === 'DaemonSet' && from === 'extensions/v1beta1') || (kind === 'StatefulSet' && from === 'apps/v1beta1')) {
    if (!isObject(spec['updateStrategy']) || spec['updateStrategy']['type'] == null) {
      spec['updateStrategy'] = { ...(isObject(spec['updateStrategy']) ? spec['updateStrategy'] : {}), type: 'OnDelete' };
      changes.push(`spec.updateStrategy.type: OnDelete (${from}'s default; apps/v1's is RollingUpdate)`);
    }
  }
  if (kind === 'DaemonSet' && 'templateGeneration' in spec) {
    delete spec['templateGeneration'];
    changes.push('removed spec.templateGeneration (apps/v1 has no such field)');
  }
  return changes;
}

/**
 * An Ingress backend of v1beta1 (`serviceName`, `servicePort`: a number or a port name) in
 * networking.k8s.io/v1's shape (`service: {name, port: {number} | {name}}`), as kube-apiserver
 * converted it. A string stays a port name, as it was for v1beta1 (`"8080"` is no valid name
 * in either version). Returns whether it changed.
 */
function convertIngressBackend(backend: Record<string, unknown>): boolean {
  if (!('serviceName' in backend) && !('servicePort' in backend)) return false;
  const { serviceName, servicePort } = backend;
  delete backend['serviceName'];
  delete backend['servicePort'];
  const port = typeof servicePort === 'string' ? { name: servicePort } : servicePort == null ? {} : { number: servicePort };
  backend['service'] = { name: serviceName ?? '', port };
  return true;
}

function convertIngressSpec(spec: Record<string, unknown>): string[] {
  const changes: string[] = [];
  if ('backend' in spec) {
    const backend = spec['backend'];
    delete spec['backend'];
    if (isObject(backend)) {
      convertIngressBackend(backend);
      spec['defaultBackend'] = backend;
      changes.push('spec.backend → spec.defaultBackend, serviceName/servicePort → service.name/service.port (networking.k8s.io/v1\'s shape)');
    }
  }
  let backends = 0;
  const untyped: string[] = [];
  (Array.isArray(spec['rules']) ? spec['rules'] : []).forEach((rule: unknown, r) => {
    const http = isObject(rule) && isObject(rule['http']) ? rule['http'] : undefined;
    (http && Array.isArray(http['paths']) ? http['paths'] : []).forEach((path: unknown, p) => {
      if (!isObject(path)) return;
      if (isObject(path['backend']) && convertIngressBackend(path['backend'])) backends++;
      if (path['pathType'] == null) {
        path['pathType'] = 'ImplementationSpecific';
        untyped.push(`spec.rules[${r}].http.paths[${p}]`);
      }
    });
  });
  if (backends > 0) changes.push(`${backends} path backend${backends === 1 ? '' : 's'}: serviceName/servicePort → service.name/service.port (networking.k8s.io/v1's shape)`);
  if (untyped.length > 0) changes.push(`${untyped.join(', ')}: pathType ImplementationSpecific (v1beta1's default for a path without a type; networking.k8s.io/v1 requires one)`);
  return changes;
}

/** The label key kube-apiserver used to keep a v1beta1 PodDisruptionBudget's selector meaning in policy/v1. */
const v1beta1SelectorLabel = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

/**
 * policy/v1beta1 read an empty selector (`{}`) as "no pod", policy/v1 as "every pod of the
 * namespace": the selector is rewritten as kube-apiserver's conversion did, to one that selects no
 * pod; its v1beta1 form of "every pod" (what reading a policy/v1 `{}` through v1beta1 showed)
 * becomes `{}`.
 */
function convertDisruptionBudgetSelector(spec: Record<string, unknown>): string[] {
  const selector = spec['selector'];
  if (!isObject(selector)) return [];
  // One level deep, as Go read it: `matchLabels: {a: null}` is the label a="", not nothing.
  const holdsSomething = (v: unknown) => v != null && !(Array.isArray(v) && v.length === 0) && !(isObject(v) && Object.keys(v).length === 0);
  const keys = Object.keys(selector).filter((k) => holdsSomething(selector[k]));
  if (keys.length === 0) {
    spec['selector'] = { matchExpressions: [{ key: v1beta1SelectorLabel, operator: 'Exists' }] };
    return [`spec.selector {} → a selector that matches no pod (policy/v1beta1's empty selector selected no pod, policy/v1's selects every pod of the namespace)`];
  }
  const expressions = selector['matchExpressions'];
  if (keys.length === 1 && Array.isArray(expressions) && expressions.length === 1 && isObject(expressions[0])
    && expressions[0]['key'] === v1beta1SelectorLabel && expressions[0]['operator'] === 'DoesNotExist') {
    spec['selector'] = {};
    return [`spec.selector (policy/v1beta1's form of "every pod") → {} (policy/v1's)`];
  }
  return [];
}

/**
 * autoscaling/v2beta1's metric targets (`targetAverageUtilization`, `targetAverageValue`,
 * `targetValue`, `metricName`, an Object metric's `target`) in autoscaling/v2's shape (`target:
 * {type, ...}`, `metric: {name, selector}`, `describedObject`), as kube-apiserver converted them.
 */
function convertAutoscalerMetrics(spec: Record<string, unknown>): string[] {
  const metrics = Array.isArray(spec['metrics']) ? spec['metrics'] : [];
  const converted: string[] = [];
  metrics.forEach((m: unknown, i) => {
    if (!isObject(m) || typeof m['type'] !== 'string') return;
    const field = m['type'].charAt(0).toLowerCase() + m['type'].slice(1);
    const source = m[field];
    if (!isObject(source)) return;
    const next = convertMetricSource(m['type'], source);
    if (next === undefined) return;
    m[field] = next;
    converted.push(`spec.metrics[${i}]`);
  });
  return converted.length === 0 ? [] : [`${converted.join(', ')}: metric targets in autoscaling/v2's shape (target.type and its value, metric.name; kube-apiserver converted them so)`];
}

const present = (v: unknown) => v !== undefined && v !== null;

function convertMetricSource(type: string, s: Record<string, unknown>): Record<string, unknown> | undefined {
  const metric = (name: unknown, selector: unknown) => ({ name, ...(present(selector) ? { selector } : {}) });
  switch (type) {
    case 'Resource':
    case 'ContainerResource': {
      if (!('targetAverageUtilization' in s) && !('targetAverageValue' in s)) return undefined;
      const target = present(s['targetAverageUtilization'])
        ? { type: 'Utilization', averageUtilization: s['targetAverageUtilization'], ...(present(s['targetAverageValue']) ? { averageValue: s['targetAverageValue'] } : {}) }
        : { type: 'AverageValue', averageValue: s['targetAverageValue'] };
      return { name: s['name'], ...(type === 'ContainerResource' ? { container: s['container'] } : {}), target };
    }
    case 'Pods':
      if (!('metricName' in s)) return undefined;
      return { metric: metric(s['metricName'], s['selector']), target: { type: 'AverageValue', averageValue: s['targetAverageValue'] } };
    case 'Object': {
      if (!('metricName' in s)) return undefined;
      const target = present(s['averageValue'])
        ? { type: 'AverageValue', averageValue: s['averageValue'] }
        : { type: 'Value', value: s['targetValue'] };
      return { describedObject: s['target'], metric: metric(s['metricName'], s['selector']), target };
    }
    case 'External': {
      if (!('metricName' in s)) return undefined;
      const target = present(s['targetValue'])
        ? { type: 'Value', value: s['targetValue'], ...(present(s['targetAverageValue']) ? { averageValue: s['targetAverageValue'] } : {}) }
        : { type: 'AverageValue', averageValue: s['targetAverageValue'] };
      return { metric: metric(s['metricName'], s['metricSelector']), target };
    }
    default:
      return undefined;
  }
}
