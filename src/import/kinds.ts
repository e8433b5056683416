/**
 * What import knows about API groups and kinds: the core `v1` kinds, OpenShift's legacy
 * group-less kinds and their groups (library-go `legacygroupification`), OpenShift-only kinds
 * with what to use instead, and Kubernetes API versions that no longer exist.
 */

import { replacementVersion } from './removed-versions.js';

/** Kinds served by the core (group-less) `v1` API of Kubernetes. */
const coreV1Kinds = new Set([
  'Binding', 'ComponentStatus', 'ConfigMap', 'Endpoints', 'Event', 'LimitRange', 'Namespace', 'Node',
  'PersistentVolume', 'PersistentVolumeClaim', 'Pod', 'PodTemplate', 'ReplicationController', 'ResourceQuota',
  'Secret', 'Service', 'ServiceAccount',
]);

/** OpenShift kinds once served group-less under `v1`, and the group they moved to. */
const legacyKindGroups: Record<string, string> = {};
const legacy = (group: string, kinds: string[]) => { for (const k of kinds) legacyKindGroups[k] = group; };
legacy('apps.openshift.io', ['DeploymentConfig', 'DeploymentConfigRollback', 'DeploymentLog', 'DeploymentRequest']);
legacy('authorization.openshift.io', ['ClusterPolicy', 'ClusterPolicyBinding', 'ClusterRole', 'ClusterRoleBinding', 'LocalResourceAccessReview',
  'LocalSubjectAccessReview', 'Policy', 'PolicyBinding', 'ResourceAccessReview', 'Role', 'RoleBinding', 'RoleBindingRestriction',
  'SelfSubjectRulesReview', 'SubjectAccessReview', 'SubjectRulesReview']);
legacy('build.openshift.io', ['BinaryBuildRequestOptions', 'Build', 'BuildConfig', 'BuildLog', 'BuildRequest']);
legacy('image.openshift.io', ['Image', 'ImageSignature', 'ImageStream', 'ImageStreamImage', 'ImageStreamImport', 'ImageStreamMapping', 'ImageStreamTag', 'ImageTag']);
legacy('network.openshift.io', ['ClusterNetwork', 'EgressNetworkPolicy', 'HostSubnet', 'NetNamespace']);
legacy('oauth.openshift.io', ['OAuthAccessToken', 'OAuthAuthorizeToken', 'OAuthClient', 'OAuthClientAuthorization']);
legacy('project.openshift.io', ['Project', 'ProjectRequest']);
legacy('quota.openshift.io', ['AppliedClusterResourceQuota', 'ClusterResourceQuota']);
legacy('route.openshift.io', ['Route']);
legacy('security.openshift.io', ['PodSecurityPolicyReview', 'PodSecurityPolicySelfSubjectReview', 'PodSecurityPolicySubjectReview', 'SecurityContextConstraints']);
legacy('template.openshift.io', ['BrokerTemplateInstance', 'Template', 'TemplateInstance']);
legacy('user.openshift.io', ['Group', 'Identity', 'User', 'UserIdentityMapping']);

/** Kubernetes API versions removed from the API server, with what replaced them. */
const removedVersions: Record<string, string> = {
  // The workloads, Ingresses, CronJobs, disruption budgets, autoscalers, NetworkPolicies, RBAC,
  // PriorityClasses and StorageClasses of these versions are converted (removed-versions.ts);
  // what is left here has no conversion.
  'extensions/v1beta1': 'Pod Security Admission for a PodSecurityPolicy, which has no successor',
  'apps/v1beta1': 'apps/v1',
  'apps/v1beta2': 'apps/v1',
  'networking.k8s.io/v1beta1': 'networking.k8s.io/v1',
  'batch/v1beta1': 'batch/v1',
  'policy/v1beta1': 'Pod Security Admission for a PodSecurityPolicy, which has no successor',
  'batch/v2alpha1': 'batch/v1 (a batch/v2alpha1 CronJob kept every finished Job: set successfulJobsHistoryLimit and failedJobsHistoryLimit)',
  'rbac.authorization.k8s.io/v1beta1': 'rbac.authorization.k8s.io/v1',
  'rbac.authorization.k8s.io/v1alpha1': 'rbac.authorization.k8s.io/v1',
  'apiextensions.k8s.io/v1beta1': 'apiextensions.k8s.io/v1',
  'admissionregistration.k8s.io/v1beta1': 'admissionregistration.k8s.io/v1',
  'autoscaling/v2beta1': 'autoscaling/v2',
  'autoscaling/v2beta2': 'autoscaling/v2',
  'storage.k8s.io/v1beta1': 'storage.k8s.io/v1',
  'scheduling.k8s.io/v1beta1': 'scheduling.k8s.io/v1',
  'coordination.k8s.io/v1beta1': 'coordination.k8s.io/v1',
  'discovery.k8s.io/v1beta1': 'discovery.k8s.io/v1',
  'events.k8s.io/v1beta1': 'events.k8s.io/v1',
  'certificates.k8s.io/v1beta1': 'certificates.k8s.io/v1',
};

/** Why an OpenShift-only kind is skipped, and what to use instead. */
export interface OpenShiftOnly { readonly reason: string; readonly hint: string }

const hintsByKind: Record<string, string> = {
  Route: 'expose the Service with an Ingress (networking.k8s.io/v1) or a Gateway API HTTPRoute',
  BuildConfig: 'build images in CI (Tekton, Shipwright, GitHub Actions, ...) and push them to a registry the cluster can pull from',
  Build: 'builds are history of a BuildConfig; build images in CI instead',
  ImageStreamTag: 'a server-side view of an ImageStream: import the ImageStream (its spec.tags) instead',
  ImageStreamImage: 'a server-side view of an ImageStream: import the ImageStream (its spec.tags) instead',
  ImageStreamMapping: 'written by the OpenShift registry: import the ImageStream (its spec.tags) instead',
  ImageTag: 'a server-side view of an ImageStream: import the ImageStream (its spec.tags) instead',
  Image: 'image metadata kept by the OpenShift registry: push the image to a registry and reference it by tag or digest',
  Project: 'create a Namespace (kubectl create namespace NAME)',
  ProjectRequest: 'create a Namespace (kubectl create namespace NAME)',
  Role: 'use kind Role of rbac.authorization.k8s.io/v1 (same rules and names)',
  RoleBinding: 'use kind RoleBinding of rbac.authorization.k8s.io/v1 (subjects and roleRef keep their meaning)',
  ClusterRole: 'use kind ClusterRole of rbac.authorization.k8s.io/v1',
  ClusterRoleBinding: 'use kind ClusterRoleBinding of rbac.authorization.k8s.io/v1',
  SecurityContextConstraints: 'use Pod Security Admission labels on the namespace (pod-security.kubernetes.io/enforce)',
  ClusterResourceQuota: 'use a ResourceQuota in each namespace',
  EgressNetworkPolicy: 'use a NetworkPolicy with egress rules',
  TemplateInstance: 'process the Template itself with dcctl import -f TEMPLATE --param NAME=value',
  BrokerTemplateInstance: 'process the Template itself with dcctl import -f TEMPLATE --param NAME=value',
  User: 'users come from the cluster\'s authentication (OIDC, certificates), not from objects',
  Group: 'groups come from the cluster\'s authentication (OIDC groups claim), not from objects',
  Identity: 'identities come from the cluster\'s authentication, not from objects',
};

/** How import treats an `apiVersion`/`kind` pair. */
export type KindClass =
  | { readonly type: 'deploymentconfig'; readonly apiVersion: string }
  | { readonly type: 'imagestream'; readonly apiVersion: string }
  /** `convertedFrom`: a version Kubernetes no longer serves, which import rewrites (removed-versions.ts). */
  | { readonly type: 'kubernetes'; readonly apiVersion: string; readonly convertedFrom?: string }
  | { readonly type: 'openshift-only'; readonly apiVersion: string; readonly info: OpenShiftOnly }
  | { readonly type: 'invalid'; readonly message: string };

/** `group` of an apiVersion (`''` for the core group). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

const isOpenShiftGroup = (group: string) => group === 'openshift.io' || group.endsWith('.openshift.io');

/**
 * Classifies an object by its apiVersion and kind; legacy group-less OpenShift kinds are
 * returned with their group form in `apiVersion`.
 */
export function classify(apiVersion: string, kind: string): KindClass {
  const parts = apiVersion.split('/');
  if (parts.length > 2 || parts.some((p) => p === '') || !/^[a-z0-9.-]+(\/[a-z0-9]+)?$/.test(apiVersion)) {
    return { type: 'invalid', message: `unknown apiVersion "${apiVersion}": expected "v1" or "GROUP/VERSION"` };
  }
  let effective = apiVersion;
  if (parts.length === 1) {
    if (apiVersion !== 'v1') return { type: 'invalid', message: `unknown apiVersion "${apiVersion}" for kind ${kind}: the group-less API only has v1` };
    if (coreV1Kinds.has(kind)) return { type: 'kubernetes', apiVersion };
    const group = legacyKindGroups[kind];
    if (!group) return { type: 'invalid', message: `unknown kind ${kind} for apiVersion v1: neither a core Kubernetes kind nor a legacy OpenShift kind (did you mean another apiVersion?)` };
    effective = `${group}/v1`;
  }
  const replacement = replacementVersion(effective, kind);
  if (replacement) return { type: 'kubernetes', apiVersion: replacement, convertedFrom: effective };
  const removed = removedVersions[effective];
  if (removed) return { type: 'invalid', message: `apiVersion "${effective}" (kind ${kind}) is no longer served by Kubernetes; use ${removed}` };
  const group = groupOf(effective);
  if (!isOpenShiftGroup(group)) return { type: 'kubernetes', apiVersion: effective };

  const version = effective.slice(group.length + 1);
  if (group === 'apps.openshift.io' && kind === 'DeploymentConfig') {
    return version === 'v1' ? { type: 'deploymentconfig', apiVersion: effective }
      : { type: 'invalid', message: `unknown apiVersion "${effective}" for DeploymentConfig: only apps.openshift.io/v1 (or legacy v1) exists` };
  }
  if (group === 'image.openshift.io' && kind === 'ImageStream') {
    return version === 'v1' ? { type: 'imagestream', apiVersion: effective }
      : { type: 'invalid', message: `unknown apiVersion "${effective}" for ImageStream: only image.openshift.io/v1 (or legacy v1) exists` };
  }
  const hint = hintsByKind[kind] ?? 'no equivalent is served by this project; recreate what it configures with Kubernetes objects';
  return { type: 'openshift-only', apiVersion: effective, info: { reason: `${kind} (${group}) is served only by OpenShift`, hint } };
}

/** kubectl's reference form: `deploymentconfig.apps.openshift.io/web`, `service/web`. */
export function refOf(apiVersion: string, kind: string, name: string): string {
  const group = groupOf(apiVersion);
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}
