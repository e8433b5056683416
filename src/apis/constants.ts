/**
 * The OpenShift annotation, label, phase and reason strings, byte for byte. Tools that read RCs
 * (`oc rollout history`, exporters) key on these, so they must never be reworded.
 */
export const Group = 'apps.openshift.io' as const;
export const Version = 'v1' as const;
export const ApiVersion = `${Group}/${Version}` as const;
export const Kind = 'DeploymentConfig' as const;
export const Plural = 'deploymentconfigs' as const;

export const Annotations = {
  DeploymentConfig: 'openshift.io/deployment-config.name',
  EncodedConfig: 'openshift.io/encoded-deployment-config',
  LatestVersion: 'openshift.io/deployment-config.latest-version',
  Phase: 'openshift.io/deployment.phase',
  Cancelled: 'openshift.io/deployment.cancelled',
  StatusReason: 'openshift.io/deployment.status-reason',
  DeployerPod: 'openshift.io/deployer-pod.name',
  DeployerPodCreatedAt: 'openshift.io/deployer-pod.created-at',
  DeployerPodStartedAt: 'openshift.io/deployer-pod.started-at',
  DeployerPodCompletedAt: 'openshift.io/deployer-pod.completed-at',
  DesiredReplicas: 'kubectl.kubernetes.io/desired-replicas',
  DeploymentReplicas: 'openshift.io/deployment.replicas',
  DeployerPodIgnore: 'deploy.openshift.io/deployer-pod.ignore',
  UpdateSourceId: 'kubectl.kubernetes.io/update-source-id',
  OriginalReplicas: 'kubectl.kubernetes.io/original-replicas',
  Deployment: 'openshift.io/deployment.name',
  /** This project's request channel for `rollout latest` (a CRD has no instantiate subresource). */
  InstantiateRequest: 'deploy.dcctl.io/instantiate',
  /** Acknowledgement the controller writes once it has handled an instantiate request. */
  InstantiateAck: 'deploy.dcctl.io/instantiate-ack',
  /**
   * This project's choice of deployer (design.md §6.8): `inline` (the deployer controller runs the
   * rollout, no deployer pod) or `pod`, on a DC; on an RC, the mode its rollout runs in.
   */
  DeployerMode: 'deploy.dcctl.io/deployer',
  /** Progress of a pod-less rollout on its RC: `<stage index> <RFC 3339 start of that stage>`. */
  InlineStage: 'deploy.dcctl.io/inline-stage',
} as const;

export const DeployerModes = ['pod', 'inline'] as const;
export type DeployerMode = (typeof DeployerModes)[number];

export const Labels = {
  DeploymentConfig: 'openshift.io/deployment-config.name',
  DeployerPodFor: 'openshift.io/deployer-pod-for.name',
  DeployerPodType: 'openshift.io/deployer-pod.type',
  DeploymentConfigShort: 'deploymentconfig',
  Deployment: 'deployment',
} as const;

/** Value of the cancelled annotation; compared case-insensitively when read. */
export const CancelledTrue = 'true';

export const Phase = {
  New: 'New',
  Pending: 'Pending',
  Running: 'Running',
  Complete: 'Complete',
  Failed: 'Failed',
} as const;
export type DeploymentPhase = (typeof Phase)[keyof typeof Phase];

export const StatusReasons = {
  ConfigChange: 'config change',
  ImageChange: 'image change',
  ManualChange: 'manual change',
  CancelledByUser: 'cancelled by the user',
  CancelledByNewer: 'newer deployment was found running',
  FailedToCreateDeployerPod: 'unable to create deployer pod',
  DeployerPodNoLongerExists: 'deployer pod no longer exists',
  UnrelatedPodExists: 'unrelated pod with the same name as this deployment is already running',
} as const;

export const ConditionType = {
  Available: 'Available',
  Progressing: 'Progressing',
  ReplicaFailure: 'ReplicaFailure',
} as const;

export const ConditionReason = {
  ReplicationControllerUpdated: 'ReplicationControllerUpdated',
  ReplicationControllerCreateError: 'ReplicationControllerCreateError',
  NewReplicationControllerCreated: 'NewReplicationControllerCreated',
  NewReplicationControllerAvailable: 'NewReplicationControllerAvailable',
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  RolloutCancelled: 'RolloutCancelled',
  DeploymentConfigPaused: 'DeploymentConfigPaused',
  DeploymentConfigResumed: 'DeploymentConfigResumed',
  /** Not OpenShift's: set while an initial rollout waits for ImageChange triggers to resolve. */
  WaitingForImages: 'WaitingForImages',
  /**
   * Not OpenShift's: ReplicaFailure=True while the latest RC carries annotations the controller
   * cannot read (e.g. a truncated encoded config). OpenShift retries such a DC silently.
   */
  InvalidReplicationController: 'InvalidReplicationController',
} as const;

export const Defaults = {
  RollingTimeoutSeconds: 600,
  RecreateTimeoutSeconds: 600,
  RollingIntervalSeconds: 1,
  RollingUpdatePeriodSeconds: 1,
  MaxDeploymentDurationSeconds: 21600,
  RevisionHistoryLimit: 10,
  DeployerServiceAccount: 'deployer',
  DeployerContainerName: 'deployment',
  HookContainerName: 'lifecycle',
} as const;

export const HookSuffix = { Pre: 'hook-pre', Mid: 'hook-mid', Post: 'hook-post' } as const;
