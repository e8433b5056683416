/**
 * What an OpenShift project holds that the project itself did not ask for: objects the cluster
 * writes into every namespace, and references to the exported project's name inside RoleBindings
 * and service CA annotations. `oc get all,cm,secret,sa,rolebinding -o yaml` exports all of it.
 * Pure.
 */
import { isObject, metadataMap, type KubeObject } from './types.js';

const Rbac = 'rbac.authorization.k8s.io/v1';

/** Why an object the cluster (kube or OpenShift) writes into every namespace is not imported. */
export function projectDefaultSkip(o: KubeObject, apiVersion: string, kind: string, name: string): { reason: string; hint?: string } | undefined {
  if (kind === 'ConfigMap' && apiVersion === 'v1') {
    if (name === 'kube-root-ca.crt') {
      // Applied, it is a conflict with the field manager that publishes it (the dry run refuses
      // the whole import), or it lands first with the old cluster's CA.
      return { reason: 'published in every namespace by kube-controller-manager with the cluster\'s own CA; the new cluster publishes its own' };
    }
    if (name === 'openshift-service-ca.crt') {
      return {
        reason: 'written in every project by OpenShift\'s service CA operator, with that cluster\'s service CA',
        hint: 'vanilla Kubernetes injects no service CA bundle: cert-manager (trust-manager, or its CA injector) distributes one',
      };
    }
  }
  if (kind === 'RoleBinding' && apiVersion === Rbac) {
    const roleRef = isObject(o['roleRef']) ? o['roleRef'] : {};
    const role = roleRef['kind'] === 'ClusterRole' ? roleRef['name'] : undefined;
    if (name === 'system:deployers' && role === 'system:deployer') {
      return { reason: 'made by OpenShift in every project; the controller makes the same binding (ClusterRole system:deployer, the namespace\'s deployer service account) when a rollout needs it, unless it runs with --manage-deployer-access=false' };
    }
    if (name === 'system:image-builders' && role === 'system:image-builder') {
      return { reason: 'made by OpenShift in every project for its builds (ClusterRole system:image-builder); there are no builds here' };
    }
    if (name === 'system:image-pullers' && role === 'system:image-puller') {
      return { reason: 'made by OpenShift in every project so that its service accounts pull its images; image triggers within a namespace need no grant here' };
    }
  }
  return undefined;
}

/**
 * A RoleBinding's service account subjects in the exported project name that project; without a
 * namespace they mean the binding's own namespace (the RBAC authorizer's default), which is where
 * import puts the binding. Removes those namespaces; returns one change line each, and notes for
 * the group of the project's service accounts, which only a namespace name can spell.
 */
export function rebindToImportedNamespace(o: KubeObject, apiVersion: string, kind: string, exportedNamespace: string | undefined): { changes: string[]; notes: string[] } {
  const changes: string[] = [];
  const notes: string[] = [];
  if (kind !== 'RoleBinding' || apiVersion !== Rbac || exportedNamespace === undefined || !Array.isArray(o['subjects'])) return { changes, notes };
  o['subjects'].forEach((s: unknown, i) => {
    if (!isObject(s)) return;
    if (s['kind'] === 'ServiceAccount' && s['namespace'] === exportedNamespace) {
      delete s['namespace'];
      changes.push(`removed subjects[${i}].namespace "${exportedNamespace}" (the exported project; a service account without one is the binding's namespace's)`);
    }
    if (s['kind'] === 'Group' && s['name'] === `system:serviceaccounts:${exportedNamespace}`) {
      notes.push(`subjects[${i}] is the group of the service accounts of project ${exportedNamespace}: imported into another namespace, it still names that one (write system:serviceaccounts:<namespace>)`);
    }
  });
  return { changes, notes };
}

/** What OpenShift's service CA operator did for an object, which nothing does here. */
export function serviceCaNotes(o: KubeObject, apiVersion: string, kind: string): string[] {
  if (apiVersion !== 'v1') return [];
  const annotations = metadataMap(o, 'annotations');
  if (kind === 'ConfigMap' && annotations['service.beta.openshift.io/inject-cabundle'] === 'true') {
    return ['OpenShift\'s service CA operator wrote the service CA bundle into this ConfigMap (annotation service.beta.openshift.io/inject-cabundle); here nothing updates it, and it holds the old cluster\'s CA'];
  }
  const servingSecret = annotations['service.beta.openshift.io/serving-cert-secret-name'];
  if (kind === 'Service' && typeof servingSecret === 'string') {
    return [`OpenShift's service CA operator generated the TLS secret ${servingSecret} for this Service (annotation service.beta.openshift.io/serving-cert-secret-name); nothing generates it here (cert-manager can)`];
  }
  const origin = annotations['service.beta.openshift.io/originating-service-name'];
  if (kind === 'Secret' && typeof origin === 'string') {
    return [`a serving certificate OpenShift's service CA operator made for Service ${origin}, signed by the old cluster's service CA: clients on the new cluster will not trust it, and nothing renews it`];
  }
  return [];
}

/**
 * NetworkPolicies of OpenShift's project template admit traffic from OpenShift's own namespaces
 * by labels only OpenShift puts on them (`network.openshift.io/policy-group: ingress`, or
 * `policy-group.network.openshift.io/<group>` in newer releases). Here no namespace carries them,
 * so such a rule admits nothing: next to a deny-by-default policy, the ingress controller no
 * longer reaches the pods.
 */
export function networkPolicyNotes(o: KubeObject, apiVersion: string, kind: string): string[] {
  if (kind !== 'NetworkPolicy' || apiVersion !== 'networking.k8s.io/v1') return [];
  const spec = isObject(o['spec']) ? o['spec'] : {};
  const groups = new Set<string>();
  for (const direction of ['ingress', 'egress'] as const) {
    const rules = Array.isArray(spec[direction]) ? spec[direction] : [];
    for (const rule of rules) {
      const peers = isObject(rule) ? rule[direction === 'ingress' ? 'from' : 'to'] : undefined;
      for (const peer of Array.isArray(peers) ? peers : []) {
        const selector = isObject(peer) && isObject(peer['namespaceSelector']) ? peer['namespaceSelector'] : undefined;
        if (!selector) continue;
        const labels = isObject(selector['matchLabels']) ? selector['matchLabels'] : {};
        const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : [];
        const keys = [...Object.keys(labels), ...expressions.map((e: unknown) => (isObject(e) ? String(e['key']) : ''))];
        for (const key of keys) {
          if (key === 'network.openshift.io/policy-group') groups.add(`${key}=${String(labels[key] ?? '…')}`);
          else if (key.startsWith('policy-group.network.openshift.io/')) groups.add(key);
        }
      }
    }
  }
  if (groups.size === 0) return [];
  return [`its namespaceSelector ${[...groups].sort().join(', ')} selects namespaces by a label OpenShift puts on its own (router, monitoring); no namespace here has it, so the rule admits nothing until you label the namespace it means (or select it by kubernetes.io/metadata.name)`];
}

/**
 * A project's Namespace carries what OpenShift's security context constraints applied to every
 * pod in it: a UID range (pods ran as an arbitrary UID from it, never as the image's user) and,
 * where set, a Pod Security level the SCC mutations made pods meet. Nothing here mutates pods.
 */
export function namespaceNotes(o: KubeObject, apiVersion: string, kind: string): string[] {
  if (kind !== 'Namespace' || apiVersion !== 'v1') return [];
  const annotations = metadataMap(o, 'annotations');
  const labels = metadataMap(o, 'labels');
  const notes: string[] = [];
  const uidRange = annotations['openshift.io/sa.scc.uid-range'];
  if (typeof uidRange === 'string') {
    notes.push(`OpenShift ran this project's pods as a UID from ${uidRange} (annotation openshift.io/sa.scc.uid-range, by its restricted SCC); here a pod runs as its image's user unless the template sets securityContext.runAsUser`);
  }
  const enforce = labels['pod-security.kubernetes.io/enforce'];
  if (enforce === 'restricted' || enforce === 'baseline') {
    notes.push(`label pod-security.kubernetes.io/enforce=${enforce}: OpenShift's SCC admission made pods meet it (user, capabilities, seccomp); here nothing does, so a pod template without those settings is refused`);
  }
  return notes;
}

