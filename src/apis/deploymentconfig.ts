/**
 * TypeScript shapes of `apps.openshift.io/v1` DeploymentConfig, as served by crds/. Field names
 * and optionality follow openshift/api `apps/v1/types.go`.
 */
import type {
  V1ObjectMeta, V1ObjectReference, V1PodTemplateSpec, V1ResourceRequirements, V1EnvVar,
} from '@kubernetes/client-node';

export type IntOrString = number | string;

export interface ExecNewPodHook {
  command: string[];
  env?: V1EnvVar[];
  containerName: string;
  volumes?: string[];
}
export interface TagImageHook {
  containerName: string;
  to: V1ObjectReference;
}
// OpenShift stored any non-empty value; one of the three named here has a meaning of its own, any
// other lets a failure of its hook fail the rollout without the Failed event.
export type LifecycleHookFailurePolicy = 'Abort' | 'Retry' | 'Ignore' | (string & Record<never, never>);
export interface LifecycleHook {
  failurePolicy: LifecycleHookFailurePolicy;
  execNewPod?: ExecNewPodHook;
  tagImages?: TagImageHook[];
}
export interface CustomDeploymentStrategyParams {
  image?: string;
  environment?: V1EnvVar[];
  command?: string[];
}
export interface RecreateDeploymentStrategyParams {
  timeoutSeconds?: number;
  pre?: LifecycleHook;
  mid?: LifecycleHook;
  post?: LifecycleHook;
}
export interface RollingDeploymentStrategyParams {
  updatePeriodSeconds?: number;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
  pre?: LifecycleHook;
  post?: LifecycleHook;
}
export type DeploymentStrategyType = 'Rolling' | 'Recreate' | 'Custom';
export interface DeploymentStrategy {
  type?: DeploymentStrategyType;
  customParams?: CustomDeploymentStrategyParams;
  recreateParams?: RecreateDeploymentStrategyParams;
  rollingParams?: RollingDeploymentStrategyParams;
  resources?: V1ResourceRequirements;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  activeDeadlineSeconds?: number;
}
export type DeploymentTriggerType = 'ConfigChange' | 'ImageChange';
export interface DeploymentTriggerImageChangeParams {
  automatic?: boolean;
  containerNames?: string[];
  from: V1ObjectReference;
  lastTriggeredImage?: string;
}
export interface DeploymentTriggerPolicy {
  type: DeploymentTriggerType;
  imageChangeParams?: DeploymentTriggerImageChangeParams;
}
export interface DeploymentConfigSpec {
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  /** null/absent means [ConfigChange]; an explicit [] means manual only. */
  triggers?: DeploymentTriggerPolicy[] | null;
  replicas?: number;
  revisionHistoryLimit?: number;
  test?: boolean;
  paused?: boolean;
  selector?: Record<string, string>;
  template?: V1PodTemplateSpec;
}
export interface DeploymentCauseImageTrigger { from: V1ObjectReference }
export interface DeploymentCause {
  type: DeploymentTriggerType | 'Manual';
  imageTrigger?: DeploymentCauseImageTrigger;
}
export interface DeploymentDetails { message?: string; causes?: DeploymentCause[] }
export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}
export interface DeploymentConfigStatus {
  latestVersion?: number;
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  readyReplicas?: number;
  details?: DeploymentDetails;
  conditions?: DeploymentCondition[];
  /** Not OpenShift's: string selector for the scale subresource (HPA, kubectl scale). */
  selector?: string;
  /** Not OpenShift's: acknowledgement of the last instantiate request (see InstantiateRequest). */
  lastInstantiateRequest?: InstantiateAck;
}

/**
 * This project's stand-in for OpenShift's `instantiate` subresource: a user who may patch the DC
 * writes this JSON into the `deploy.dcctl.io/instantiate` annotation. A value that is not JSON is
 * taken as `{id: value}`. Fields mirror OpenShift's DeploymentRequest.
 */
export interface InstantiateRequest {
  /** Any unique token; the request is handled once per distinct id. */
  id: string;
  /** Resolve image triggers before deciding (default true). */
  latest?: boolean;
  /** Roll out even when nothing changed (cause "manual change"). */
  force?: boolean;
  excludeTriggers?: DeploymentTriggerType[];
}

/** Written to status together with the latestVersion bump it caused, so it is atomic. */
export interface InstantiateAck {
  id: string;
  outcome: 'Triggered' | 'NotTriggered' | 'Rejected';
  message?: string;
  /** latestVersion after handling the request. */
  latestVersion: number;
  time: string;
}
export interface DeploymentConfig {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec: DeploymentConfigSpec;
  status?: DeploymentConfigStatus;
}
