/**
 * Lifecycle hooks (oc `support/lifecycle.go`, design.md §3.4, §6.6): runs a hook in a
 * new pod derived from a template container, follows it to completion, streams its log, and
 * applies the hook's failure policy.
 */
import type {
  V1Container, V1EnvVar, V1Pod, V1ReplicationController, V1Volume, V1VolumeMount,
} from '@kubernetes/client-node';
import { Annotations, Defaults, Labels } from '../apis/constants.js';
import type { DeploymentStrategy, LifecycleHook, TagImageHook } from '../apis/deploymentconfig.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import { isAlreadyExists } from '../controller/errors.js';
import type { ImageStreamClient } from '../image/ports.js';
import { parseImageStreamTagName } from '../image/resolve.js';
import { tagIntoStream } from '../image/tag.js';
import { deployerPodNameFor, getPodName, rcLabelValue } from '../util/naming.js';
import { aggregateMessage, errorMessage } from '../util/error-message.js';
import { goQuote } from '../util/go-format.js';
import type { DeployerEvents } from './events.js';
import type { DeployerDeps } from './ports.js';
import { WatchedObjectDeletedError } from './ports.js';
import { rcName, rcNamespace } from './util.js';

/** Label of a hook point as used in messages: `pre`, `mid`, `post`. */
export type HookLabel = 'pre' | 'mid' | 'post';

/** Runs lifecycle hooks for one deployer invocation. */
export interface HookExecutor {
  /**
   * Runs `hook` for `rc`. `suffix` names the hook pod (`hook-pre` …). Resolves when the hook
   * succeeded or failed under the Ignore policy; rejects otherwise.
   */
  execute(hook: LifecycleHook, rc: V1ReplicationController, suffix: string, label: HookLabel): Promise<void>;
}

/** The error of a tagImages hook run without an ImageStream client (DeployerDeps.imageStreams). */
export const TagImagesUnsupportedMessage =
  'tagImages hooks need the image.openshift.io ImageStream API, which this cluster does not serve yet';

function findContainer(rc: V1ReplicationController, name: string): V1Container | undefined {
  return rc.spec?.template?.spec?.containers?.find((c) => c.name === name);
}

/**
 * `createHookPodManifest`: the pod that runs an execNewPod hook. Env is the base container's
 * with the hook's entries winning by name (in base order, new names appended; OpenShift's order
 * is random), then OPENSHIFT_DEPLOYMENT_NAME/NAMESPACE. `activeDeadlineSeconds` is what is left
 * of the strategy's deadline since `startTime` (the deployer pod's start).
 */
export function createHookPodManifest(
  hook: LifecycleHook,
  rc: V1ReplicationController,
  strategy: DeploymentStrategy,
  suffix: string,
  startTime: Date,
  now: Date,
): V1Pod {
  const exec = hook.execNewPod;
  if (!exec) throw new Error('hook has no execNewPod action');
  const base = findContainer(rc, exec.containerName);
  if (!base) throw new Error(`no container named '${exec.containerName}' found in rc template`);
  const name = rcName(rc);
  const namespace = rcNamespace(rc);

  const merged = new Map<string, V1EnvVar>();
  for (const e of [...(base.env ?? []), ...(exec.env ?? [])]) {
    const v: V1EnvVar = { name: e.name };
    if (e.value !== undefined) v.value = e.value;
    if (e.valueFrom !== undefined) v.valueFrom = e.valueFrom;
    merged.set(e.name, v);
  }
  const env: V1EnvVar[] = [
    ...merged.values(),
    { name: 'OPENSHIFT_DEPLOYMENT_NAME', value: name },
    { name: 'OPENSHIFT_DEPLOYMENT_NAMESPACE', value: namespace },
  ];

  const deadline = strategy.activeDeadlineSeconds ?? Defaults.MaxDeploymentDurationSeconds;
  const elapsed = Math.trunc((now.getTime() - startTime.getTime()) / 1000);

  const wanted = new Set(exec.volumes ?? []);
  const volumes: V1Volume[] = (rc.spec?.template?.spec?.volumes ?? []).filter((v) => wanted.has(v.name));
  const kept = new Set(volumes.map((v) => v.name));
  const volumeMounts: V1VolumeMount[] = (base.volumeMounts ?? [])
    .filter((m) => kept.has(m.name))
    .map((m) => {
      const mount: V1VolumeMount = { name: m.name, mountPath: m.mountPath };
      if (m.readOnly !== undefined) mount.readOnly = m.readOnly;
      if (m.subPath !== undefined) mount.subPath = m.subPath;
      return mount;
    });

  const container: V1Container = { name: Defaults.HookContainerName, image: base.image, command: [...exec.command], env };
  if (base.imagePullPolicy !== undefined) container.imagePullPolicy = base.imagePullPolicy;
  if (base.workingDir !== undefined) container.workingDir = base.workingDir;
  if (base.resources !== undefined) container.resources = structuredClone(base.resources);
  if (volumeMounts.length > 0) container.volumeMounts = volumeMounts;
  if (base.securityContext !== undefined) container.securityContext = structuredClone(base.securityContext);

  const labels: Record<string, string> = { [Labels.DeployerPodFor]: rcLabelValue(name), [Labels.DeployerPodType]: suffix };
  for (const [k, v] of Object.entries(strategy.labels ?? {})) if (!(k in labels)) labels[k] = v;
  const annotations: Record<string, string> = { [Annotations.Deployment]: name };
  for (const [k, v] of Object.entries(strategy.annotations ?? {})) if (!(k in annotations)) annotations[k] = v;

  const template = rc.spec?.template?.spec;
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: getPodName(name, suffix), namespace, labels, annotations },
    spec: {
      containers: [container],
      activeDeadlineSeconds: deadline - elapsed,
      restartPolicy: hook.failurePolicy === 'Retry' ? 'OnFailure' : 'Never',
      terminationGracePeriodSeconds: 10,
    },
  };
  const spec = pod.spec!;
  if (volumes.length > 0) spec.volumes = structuredClone(volumes);
  if (template?.securityContext) spec.securityContext = structuredClone(template.securityContext);
  if (template?.nodeSelector) spec.nodeSelector = { ...template.nodeSelector };
  if (template?.imagePullSecrets?.length) spec.imagePullSecrets = template.imagePullSecrets.map((s) => ({ name: s.name }));
  return pod;
}

/** `canRetryReading`: the hook container restarted (Retry policy) since we last read its log. */
function canRetryReading(pod: V1Pod, restarts: number): { canRetry: boolean; restartCount: number } {
  const first = pod.status?.containerStatuses?.[0];
  if (!first) return { canRetry: false, restartCount: 0 };
  const restartCount = first.restartCount ?? 0;
  return { canRetry: pod.spec?.restartPolicy === 'OnFailure' && restartCount > restarts, restartCount };
}

/** The hook executor of the deployer. `out` receives progress lines and hook logs. */
export function newHookExecutor(deps: DeployerDeps, events: DeployerEvents, out: NodeJS.WritableStream): HookExecutor {
  const readPodLogs = async (namespace: string, pod: string): Promise<void> => {
    try {
      await deps.logs.follow(namespace, pod, Defaults.HookContainerName, out);
    } catch (err) {
      // Logs are a convenience: a node without a kubelet server (or RBAC without pods/log)
      // must never fail the hook.
      out.write(`warning: Unable to retrieve hook logs from ${pod}: ${errorMessage(err)}\n`);
    }
  };

  const executeExecNewPod = async (hook: LifecycleHook, rc: V1ReplicationController, suffix: string, label: HookLabel): Promise<void> => {
    const config = decodeDeploymentConfig(rc);
    const namespace = rcNamespace(rc);
    const deployerPod = await deps.pods.get(namespace, deployerPodNameFor(rcName(rc)));
    // The kubelet may not have reported the start yet (oc a927ec62d): assume it is now.
    const started = deployerPod.status?.startTime;
    const startTime = started ? new Date(started) : deps.clock.now();
    const manifest = createHookPodManifest(hook, rc, config.spec.strategy ?? {}, suffix, startTime, deps.clock.now());
    const podName = manifest.metadata?.name ?? '';

    // `completed` starts true for a pod that already existed: if it is already terminal we say
    // so instead of showing its log and "Success" a second time ("hooks run once").
    let completed = false;
    let created = false;
    try {
      await deps.pods.create(namespace, manifest);
      created = true;
      out.write(`--> ${label}: Running hook pod ...\n`);
    } catch (err) {
      if (!isAlreadyExists(err)) throw new Error(`couldn't create lifecycle pod for ${rcName(rc)}: ${errorMessage(err)}`, { cause: err });
      completed = true;
    }

    const readers: Promise<void>[] = [];
    let restarts = 0;
    let alreadyRead = false;
    let last: V1Pod | undefined;
    try {
      await deps.podWatcher.waitForPod(namespace, podName, (pod) => {
        last = pod;
        switch (pod.status?.phase) {
          case 'Running': {
            completed = false;
            const { canRetry, restartCount } = canRetryReading(pod, restarts);
            if (alreadyRead && !canRetry) return false;
            if (restarts !== restartCount) {
              restarts = restartCount;
              out.write(`--> ${label}: Retrying hook pod (retry #${restartCount})\n`);
            }
            alreadyRead = true;
            readers.push(readPodLogs(namespace, podName));
            return false;
          }
          case 'Succeeded':
          case 'Failed':
            if (completed) {
              if (pod.status?.phase === 'Succeeded') out.write(`--> ${label}: Hook pod already succeeded\n`);
              return true;
            }
            if (!created) out.write(`--> ${label}: Hook pod is already running ...\n`);
            if (!alreadyRead) readers.push(readPodLogs(namespace, podName));
            return true;
          default:
            completed = false;
            return false;
        }
      }, Infinity);
    } catch (err) {
      if (err instanceof WatchedObjectDeletedError) {
        const message = `${label}: pod/${podName}[${namespace}] unexpectedly deleted`;
        out.write(`${message}\n`);
        throw new Error(message, { cause: err });
      }
      throw err;
    }

    await Promise.all(readers);
    if (last?.status?.phase === 'Failed') {
      out.write(`--> ${label}: Failed\n`);
      throw new Error(last.status.message ?? '');
    }
    if (!completed) out.write(`--> ${label}: Success\n`);
  };

  const executeTagImages = (tags: TagImageHook[], rc: V1ReplicationController, label: HookLabel): Promise<void> =>
    tagHookImages(deps.imageStreams, tags, rc, label, (line) => out.write(`${line}\n`));

  return {
    async execute(hook, rc, suffix, label) {
      let error: unknown;
      if (hook.tagImages && hook.tagImages.length > 0) {
        await events.recordConfigEvent(rc, 'Normal', 'Started', hookStartedMessage(hook, rc, label));
        try {
          await executeTagImages(hook.tagImages, rc, label);
        } catch (err) {
          error = err;
        }
      } else if (hook.execNewPod) {
        await events.recordConfigEvent(rc, 'Normal', 'Started', hookStartedMessage(hook, rc, label));
        try {
          await executeExecNewPod(hook, rc, suffix, label);
        } catch (err) {
          error = err;
        }
      }

      if (error === undefined) {
        await events.recordConfigEvent(rc, 'Normal', 'Completed', hookCompletedMessage(rc, label));
        return;
      }
      const outcome = hookFailureOutcome(hook, rc, label, errorMessage(error));
      if (!outcome) throw error;
      await events.recordConfigEvent(rc, 'Warning', 'Failed', outcome.event);
      if (outcome.abort) throw new Error(outcome.abort, { cause: error });
    },
  };
}

/** The `Started` event of a hook (both deployer modes). */
export function hookStartedMessage(hook: LifecycleHook, rc: V1ReplicationController, label: HookLabel): string {
  const where = `${rcNamespace(rc)}/${rcName(rc)}`;
  if (hook.tagImages && hook.tagImages.length > 0) {
    const images = hook.tagImages.flatMap((t) => {
      const c = findContainer(rc, t.containerName);
      return c ? [`image ${goQuote(c.image ?? '')} as ${goQuote(t.to.name ?? '')}`] : [];
    });
    return `Running ${label}-hook (TagImages) ${images.join(',')} for rc ${where}`;
  }
  return `Running ${label}-hook (${goQuote(hook.execNewPod?.command.join(' ') ?? '')}) for rc ${where}`;
}

/** The `Completed` event of a hook. */
export function hookCompletedMessage(rc: V1ReplicationController, label: HookLabel): string {
  return `The ${label}-hook for rc ${rcNamespace(rc)}/${rcName(rc)} completed successfully`;
}

/**
 * What a failed hook's failure policy makes of the failure: the Warning `Failed` event and, for
 * Abort and Retry, the error that aborts the rollout (`abort`); Ignore continues. Undefined for
 * an unknown policy (the error itself aborts, without an event).
 */
export function hookFailureOutcome(
  hook: LifecycleHook, rc: V1ReplicationController, label: HookLabel, message: string,
): { event: string; abort?: string } | undefined {
  const where = `${rcNamespace(rc)}/${rcName(rc)}`;
  switch (hook.failurePolicy) {
    case 'Abort':
    case 'Retry':
      return {
        event: `The ${label}-hook failed: ${message}, aborting rollout of ${where}`,
        abort: `the ${label} hook failed: ${message}, aborting rollout of ${where}`,
      };
    case 'Ignore':
      return { event: `The ${label}-hook failed: ${message} (ignore), rollout of ${where} will continue` };
    default:
      return undefined;
  }
}

/**
 * tagImages (§6.6): the image of each named container is tagged into `to` (an ImageStreamTag,
 * here the spec tag of an ImageStream, created if absent). Errors are aggregated. Both deployer
 * modes run it; `progress` receives one line per tag.
 */
export async function tagHookImages(
  client: ImageStreamClient | undefined,
  tags: TagImageHook[],
  rc: V1ReplicationController,
  label: HookLabel,
  progress: (line: string) => void,
): Promise<void> {
  if (!client) throw new Error(TagImagesUnsupportedMessage);
  const errors: string[] = [];
  for (const t of tags) {
    const image = findContainer(rc, t.containerName)?.image;
    if (image === undefined) {
      errors.push(`unable to find image for container ${goQuote(t.containerName)}, container could not be found`);
      continue;
    }
    const namespace = t.to.namespace || rcNamespace(rc);
    const to = parseImageStreamTagName(t.to.name ?? '');
    if (!to) {
      errors.push(`invalid ImageStreamTag name ${goQuote(t.to.name ?? '')}`);
      continue;
    }
    try {
      await tagIntoStream(client, namespace, to.stream, to.tag, { kind: 'DockerImage', name: image });
      progress(`--> ${label}: Tagged ${goQuote(image)} into ${namespace}/${t.to.name ?? ''}`);
    } catch (err) {
      errors.push(errorMessage(err));
    }
  }
  if (errors.length > 0) throw new Error(aggregateMessage(errors));
}
