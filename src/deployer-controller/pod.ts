/**
 * The deployer pod manifest (`makeDeployerPod`, openshift-controller-manager
 * `pkg/apps/deployer/deployer_controller.go`). design.md §3.3.
 */
import type { V1Container, V1EnvVar, V1Pod, V1ReplicationController, V1Toleration } from '@kubernetes/client-node';
import { Annotations, Defaults, Labels } from '../apis/constants.js';
import type { DeploymentConfig, DeploymentStrategy } from '../apis/deploymentconfig.js';
import { deployerPodNameFor, rcLabelValue } from '../util/naming.js';
import type { DeployerControllerOptions } from './options.js';

/** Controller-level variables larger than this are not injected (keeps execve under ARG_MAX). */
export const MaxInjectedEnvironmentSize = 1000 * 128;

/** Thrown when the RC lacks what a deployer pod needs (its name or namespace). */
export class DeployerPodError extends Error {
  override readonly name = 'DeployerPodError';
}

/**
 * The `deployment` container's image, command and env before the deployment variables are added
 * (`makeDeployerContainer`): `customParams` wins over the controller configuration; controller
 * variables are appended unless their name is taken or their value exceeds 128000 bytes.
 */
export function makeDeployerContainer(
  strategy: DeploymentStrategy | undefined,
  options: DeployerControllerOptions,
): { image: string; command?: string[]; env: V1EnvVar[] } {
  let image = options.deployerImage;
  let command = options.deployerCommand && options.deployerCommand.length > 0 ? [...options.deployerCommand] : undefined;
  const env: V1EnvVar[] = [];
  const names = new Set<string>();
  const params = strategy?.customParams;
  if (params) {
    if (params.image) image = params.image;
    if (params.command && params.command.length > 0) command = [...params.command];
    for (const variable of params.environment ?? []) {
      names.add(variable.name);
      env.push(structuredClone(variable));
    }
  }
  for (const variable of options.environment ?? []) {
    if (names.has(variable.name)) continue;
    // Go measures len(string), i.e. bytes.
    if (Buffer.byteLength(variable.value ?? '', 'utf8') > MaxInjectedEnvironmentSize) continue;
    env.push(structuredClone(variable));
  }
  return command ? { image, command, env } : { image, env };
}

/**
 * Builds the deployer pod for `rc`, whose encoded config decodes to `dc`:
 * - name `<rc>-deploy` (hashed when longer than 253), label `openshift.io/deployer-pod-for.name`,
 *   annotations `openshift.io/deployment.name` and `openshift.io/deployment-config.name`, then the
 *   strategy's labels/annotations, which never override those;
 * - a plain (non-controller) owner reference to the RC, so the pod is collected with it;
 * - one container `deployment` (see makeDeployerContainer) with env `OPENSHIFT_DEPLOYMENT_NAME`
 *   and `OPENSHIFT_DEPLOYMENT_NAMESPACE` last, the strategy's resources,
 *   `FallbackToLogsOnError`, `IfNotPresent`;
 * - `activeDeadlineSeconds` from the strategy (default 21600), `restartPolicy: Never`, the
 *   configured service account, grace 10 s, no shared process namespace, and the RC template's
 *   dnsPolicy, dnsConfig, enableServiceLinks, imagePullSecrets, tolerations and nodeSelector, so
 *   the deployer can run wherever the application can. Options may add placement (options.ts).
 *
 * Returns a fresh object; nothing from `rc` or `dc` is shared. Throws DeployerPodError when the
 * RC has no name or namespace.
 */
export function makeDeployerPod(rc: V1ReplicationController, dc: DeploymentConfig, options: DeployerControllerOptions): V1Pod {
  const rcName = rc.metadata?.name;
  const namespace = rc.metadata?.namespace;
  if (!rcName || !namespace) throw new DeployerPodError('replication controller has no name or namespace');
  const strategy = dc.spec?.strategy;
  const base = makeDeployerContainer(strategy, options);
  const templateSpec = rc.spec?.template?.spec;

  const labels: Record<string, string> = { [Labels.DeployerPodFor]: rcLabelValue(rcName) };
  for (const [key, value] of Object.entries(strategy?.labels ?? {})) {
    if (!(key in labels)) labels[key] = value;
  }
  const annotations: Record<string, string> = {
    [Annotations.Deployment]: rcName,
    [Annotations.DeploymentConfig]: rc.metadata?.annotations?.[Annotations.DeploymentConfig] ?? '',
  };
  for (const [key, value] of Object.entries(strategy?.annotations ?? {})) {
    if (!(key in annotations)) annotations[key] = value;
  }

  const container: V1Container = {
    name: Defaults.DeployerContainerName,
    image: base.image,
    ...(base.command ? { command: base.command } : {}),
    env: [
      ...base.env,
      { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: rcName },
      { name: 'OPENSHIFT_DEPLOYMENT_NAMESPACE', value: namespace },
    ],
    resources: structuredClone(strategy?.resources ?? {}),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    imagePullPolicy: 'IfNotPresent',
  };

  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: deployerPodNameFor(rcName),
      namespace,
      labels,
      annotations,
      ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: rcName, uid: rc.metadata?.uid ?? '' }],
    },
    spec: {
      containers: [container],
      activeDeadlineSeconds: strategy?.activeDeadlineSeconds ?? Defaults.MaxDeploymentDurationSeconds,
      restartPolicy: 'Never',
      serviceAccountName: options.serviceAccount ?? Defaults.DeployerServiceAccount,
      terminationGracePeriodSeconds: 10,
      shareProcessNamespace: false,
    },
  };
  const spec = pod.spec!;
  if (templateSpec?.dnsPolicy !== undefined) spec.dnsPolicy = templateSpec.dnsPolicy;
  if (templateSpec?.dnsConfig !== undefined) spec.dnsConfig = structuredClone(templateSpec.dnsConfig);
  if (templateSpec?.enableServiceLinks !== undefined) spec.enableServiceLinks = templateSpec.enableServiceLinks;
  if (templateSpec?.imagePullSecrets !== undefined) spec.imagePullSecrets = structuredClone(templateSpec.imagePullSecrets);
  const tolerations = mergeTolerations(templateSpec?.tolerations, options.tolerations);
  if (tolerations !== undefined) spec.tolerations = tolerations;
  const nodeSelector = mergeNodeSelector(templateSpec?.nodeSelector, options.nodeSelector);
  if (nodeSelector !== undefined) spec.nodeSelector = nodeSelector;
  return pod;
}

/** Template selector first (its values win), then option keys the template lacks. */
function mergeNodeSelector(
  template: Record<string, string> | undefined,
  extra: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  if (!extra || Object.keys(extra).length === 0) return template === undefined ? undefined : { ...template };
  const merged = { ...template };
  for (const [key, value] of Object.entries(extra)) {
    if (!(key in merged)) merged[key] = value;
  }
  return merged;
}

/** Template tolerations, then option tolerations that are not exact duplicates. */
function mergeTolerations(
  template: V1Toleration[] | undefined,
  extra: readonly V1Toleration[] | undefined,
): V1Toleration[] | undefined {
  if (!extra || extra.length === 0) return template === undefined ? undefined : structuredClone(template);
  const merged = structuredClone(template ?? []);
  const seen = new Set(merged.map(tolerationKey));
  for (const toleration of extra) {
    const key = tolerationKey(toleration);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(structuredClone(toleration));
  }
  return merged;
}

const tolerationKey = (t: V1Toleration): string =>
  JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '', t.tolerationSeconds ?? null]);
