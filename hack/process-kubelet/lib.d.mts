// Types for the pure parts of the process kubelet (lib.mjs), so TypeScript tests can import it.
import type { V1Container, V1ContainerStateTerminated, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';

export declare const DeployerPodLabel: string;
export declare const HostIP: string;
export declare const DeadlineReason: string;
export declare const DeadlineMessage: string;
export declare const RestartedMessage: string;
export declare const ImageShimPaths: Readonly<Record<string, string>>;

/** A status subresource merge-patch body. Timestamps are ISO strings. */
export interface StatusPatch {
  status: V1PodStatus & Record<string, unknown>;
}
export type Terminated = Omit<V1ContainerStateTerminated, 'startedAt' | 'finishedAt'> & {
  startedAt: string | null;
  finishedAt: string;
};
export interface EnvRef {
  kind: 'configmap' | 'secret';
  name: string;
  key: string;
  optional: boolean;
}

export declare function shimScripts(opts: { entrypointPath: string }): Record<'openshift-deploy' | 'dcctl', string>;
export declare const nodeLinkName: string;
export declare function expandVars(input: string, lookup: (name: string) => string | undefined): string;
export interface ImageDefaults {
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
}
export declare function imageDefaults(dockerfile: string): ImageDefaults;
export declare function imageEnv(image: ImageDefaults, opts: { compileCacheDir: string }): Record<string, string>;
export declare function compileCacheWarmup(opts: { nodePath: string; repoDir: string }): string[];
export declare function commandFor(
  container: V1Container,
  opts: { entrypointPath: string; shimDir: string; image: ImageDefaults; env?: Record<string, string> },
): { argv: string[]; error?: undefined } | { error: string; argv?: undefined };
export declare function fieldRefValue(pod: V1Pod, fieldPath: string): string | undefined;
export declare function refKey(kind: string, name: string, key: string): string;
export declare function envRefs(container: V1Container): EnvRef[];
export declare function resolveEnv(
  container: V1Container,
  pod: V1Pod,
  opts: { base: Record<string, string>; refValues?: Map<string, string> },
): { env: Record<string, string>; skipped: string[]; error?: undefined } | { error: string; env?: undefined; skipped?: undefined };
export declare function baseEnv(opts: {
  shimDir: string;
  nodeDir: string;
  hostPath?: string;
  home: string;
  podName: string;
  kubeconfig: string;
}): Record<string, string>;
export declare function tokenRequestBody(pod: V1Pod): {
  apiVersion: string;
  kind: string;
  spec: { audiences: string[]; expirationSeconds: number; boundObjectRef: { apiVersion: string; kind: string; name: string; uid: string } };
};
export declare function serviceAccountOf(pod: V1Pod): string;
export declare function podKubeconfig(opts: { server: string; caData?: string; insecure?: boolean; token: string; namespace: string }): string;
export declare function restartBackoffMs(restartCount: number): number;
export declare function deadlineRemainingMs(pod: V1Pod, startTime: Date | string, now: Date): number;
export declare function killGraceSeconds(pod: V1Pod): number;
export declare function podAction(pod: V1Pod, known: { has(uid: string | undefined): boolean }): 'start' | 'orphaned' | 'ignore';
export declare function podConditions(
  existing: V1PodCondition[] | undefined,
  wanted: Record<string, 'True' | 'False'>,
  now: Date,
  notReadyReason?: string,
): Array<{ type: string; status: string; lastTransitionTime: string; reason?: string }>;
export declare function terminationMessage(container: V1Container, exitCode: number, output: string | Buffer | undefined): string | undefined;
export declare function terminatedState(opts: {
  container: V1Container;
  pid?: number;
  exitCode: number;
  signal?: number;
  startedAt: Date;
  finishedAt: Date;
  output?: string | Buffer;
  reason?: string;
  message?: string;
}): Terminated;
export declare function runningStatus(
  pod: V1Pod,
  opts: { startTime: Date | string; now: Date; pid: number; startedAt: Date; restartCount?: number; lastTerminated?: Terminated },
): StatusPatch;
export declare function backoffStatus(
  pod: V1Pod,
  opts: { startTime: Date | string; now: Date; restartCount: number; lastTerminated: Terminated; delayMs: number },
): StatusPatch;
export declare function finishedStatus(
  pod: V1Pod,
  opts: {
    startTime: Date | string;
    now: Date;
    terminated?: Terminated;
    restartCount?: number;
    lastTerminated?: Terminated;
    reason?: string;
    message?: string;
  },
): StatusPatch;
export declare function exitCodeOf(code: number | null, signal: string | null, signals: Readonly<Record<string, number>>): number;
export declare function logLine(now: Date, message: string): string;
