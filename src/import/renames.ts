/**
 * Fields with a known modern form: OpenShift's (or Kubernetes') decoder converted them, or
 * defaulted them, where a vanilla cluster would refuse or drop them. Each function mutates its
 * argument and returns report lines saying what it rewrote. Fields without a modern form are
 * left to the pruning step (prune.ts), which removes and reports them.
 */
import { isObject, type KubeObject } from './types.js';

const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Service: `spec.portalIP` is the pre-v1 name of `spec.clusterIP`. */
export function renameServiceFields(svc: KubeObject): string[] {
  const spec = isObject(svc['spec']) ? svc['spec'] : undefined;
  if (!spec || !('portalIP' in spec)) return [];
  const value = spec['portalIP'];
  delete spec['portalIP'];
  if ('clusterIP' in spec) return ['removed spec.portalIP (the legacy name of spec.clusterIP, which is set as well)'];
  spec['clusterIP'] = value;
  return ['renamed spec.portalIP → spec.clusterIP (its name since Kubernetes v1)'];
}

/**
 * HorizontalPodAutoscaler aimed at a DeploymentConfig in OpenShift's legacy group-less form
 * (`scaleTargetRef` with `apiVersion: v1` or none, as `oc autoscale` wrote it in OpenShift 3 and
 * as templates still carry it): OpenShift's autoscaler resolved such a target to its DCs;
 * Kubernetes refuses it ("apiVersion must specify API group") and would find no DC in the core
 * group. The target becomes apps.openshift.io/v1, which this project serves with a scale subresource.
 */
export function retargetAutoscaler(hpa: KubeObject): string[] {
  const spec = isObject(hpa['spec']) ? hpa['spec'] : undefined;
  const ref = spec && isObject(spec['scaleTargetRef']) ? spec['scaleTargetRef'] : undefined;
  if (!ref || ref['kind'] !== 'DeploymentConfig') return [];
  const old = ref['apiVersion'];
  if (old !== undefined && old !== null && old !== '' && old !== 'v1') return [];
  ref['apiVersion'] = 'apps.openshift.io/v1';
  const was = typeof old === 'string' && old !== '' ? old : '(none)';
  return [`spec.scaleTargetRef.apiVersion ${was} → apps.openshift.io/v1 (OpenShift's autoscaler resolved a DeploymentConfig without an API group; Kubernetes needs the group)`];
}

/**
 * DeploymentConfig: legacy ImageChange sources (`from.kind: ImageStream` or `ImageRepository`,
 * converted by OpenShift's decoder to the stream's `latest` ImageStreamTag) and the removed
 * `rollingParams.updatePercent` (old OpenShift converted a positive value to maxSurge and a
 * negative one to maxUnavailable).
 */
export function renameDeploymentConfigFields(dc: KubeObject): string[] {
  const changes: string[] = [];
  const spec = isObject(dc['spec']) ? dc['spec'] : {};
  records(spec['triggers']).forEach((t, i) => {
    const params = isObject(t['imageChangeParams']) ? t['imageChangeParams'] : undefined;
    const from = params && isObject(params['from']) ? params['from'] : undefined;
    if (!from || (from['kind'] !== 'ImageStream' && from['kind'] !== 'ImageRepository')) return;
    const name = typeof from['name'] === 'string' ? from['name'] : '';
    const tagged = name.includes(':') ? name : `${name}:latest`;
    changes.push(`rewrote spec.triggers[${i}].imageChangeParams.from ${String(from['kind'])} "${name}" → ImageStreamTag "${tagged}" (as OpenShift's decoder converted the legacy kind)`);
    from['kind'] = 'ImageStreamTag';
    from['name'] = tagged;
  });
  const strategy = isObject(spec['strategy']) ? spec['strategy'] : {};
  const rolling = isObject(strategy['rollingParams']) ? strategy['rollingParams'] : undefined;
  const percent = rolling?.['updatePercent'];
  if (rolling && typeof percent === 'number' && Number.isInteger(percent) && percent !== 0
      && rolling['maxSurge'] === undefined && rolling['maxUnavailable'] === undefined) {
    delete rolling['updatePercent'];
    const field = percent > 0 ? 'maxSurge' : 'maxUnavailable';
    rolling[field] = `${Math.abs(percent)}%`;
    changes.push(`rewrote spec.strategy.rollingParams.updatePercent ${percent} → ${field} "${Math.abs(percent)}%" (as OpenShift converted the removed field)`);
  }
  return changes;
}

/**
 * ImageStream: OpenShift defaults an empty `referencePolicy.type` to Source, and reads
 * `spec.tags` into a map, so a tag listed twice keeps its last entry (the CRD's tag list is
 * keyed by name and refuses duplicates).
 */
export function normalizeImageStreamFields(is: KubeObject): string[] {
  const changes: string[] = [];
  const spec = isObject(is['spec']) ? is['spec'] : undefined;
  if (!spec || !Array.isArray(spec['tags'])) return changes;
  const tags = spec['tags'] as unknown[];
  const lastIndex = new Map<string, number>();
  tags.forEach((t, i) => { if (isObject(t) && typeof t['name'] === 'string') lastIndex.set(t['name'], i); });
  tags.forEach((t, i) => {
    if (!isObject(t)) return;
    const name = t['name'];
    if (typeof name === 'string' && lastIndex.get(name) !== i) {
      changes.push(`removed spec.tags[${i}] (tag "${name}" is defined again at spec.tags[${lastIndex.get(name)}]; OpenShift kept the last one)`);
      return;
    }
    const policy = isObject(t['referencePolicy']) ? t['referencePolicy'] : undefined;
    if (policy && (policy['type'] === '' || policy['type'] === null)) {
      policy['type'] = 'Source';
      changes.push(`set spec.tags[${i}].referencePolicy.type "" → Source (OpenShift's default for an empty type)`);
    }
  });
  if (changes.some((c) => c.startsWith('removed spec.tags['))) {
    spec['tags'] = tags.filter((t, i) => !(isObject(t) && typeof t['name'] === 'string' && lastIndex.get(t['name']) !== i));
  }
  return changes;
}
