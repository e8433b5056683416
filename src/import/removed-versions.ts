/**
 * Kubernetes kinds whose API version Kubernetes (and OpenShift 4) no longer serves but OpenShift
 * 3.11 exports and templates still carry (`extensions/v1beta1` Deployments, `apps/v1beta1`
 * StatefulSets, `rbac.authorization.k8s.io/v1beta1` bindings). Each is rewritten to the version
 * that replaced it, keeping what the old version meant: where the old version defaulted a field
 * differently from the new one (extensions/v1beta1 kept every old ReplicaSet, had no progress
 * deadline and replaced pods one at a time; the old StatefulSets and DaemonSets did not update
 * their pods on their own), the old default is written out; a field the new version lacks is
 * removed. Each change is reported. Pure: it mutates the object given and returns the report lines.
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
  if (!spec || !['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet'].includes(kind)) return changes;

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
