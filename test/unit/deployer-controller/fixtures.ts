/** Builders in the style of OpenShift's appstest: an OK DC and the RC MakeDeployment makes for it. */
import type { V1Pod, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../../src/apis/constants.js';
import type { DeploymentConfig } from '../../../src/apis/deploymentconfig.js';
import { dcFor, rcFor } from '../../support/builders.js';

export function okDeploymentConfig(version = 1, mutate?: (dc: DeploymentConfig) => void): DeploymentConfig {
  const dc = dcFor({
    name: 'config', namespace: 'default', uid: 'dc-uid', resourceVersion: '7',
    selector: { name: 'config' },
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate', recreateParams: { timeoutSeconds: 600 }, activeDeadlineSeconds: 21600 },
      triggers: [{ type: 'ConfigChange' }],
    },
    containers: [{ name: 'app', image: 'registry/app:1' }],
    status: { latestVersion: version },
  });
  mutate?.(dc);
  return dc;
}

/** The RC of `dc`'s latest version as the DC controller makes it: phase `New`, created at `createdAt`. */
export function makeDeployment(dc: DeploymentConfig, createdAt: Date, mutate?: (rc: V1ReplicationController) => void): V1ReplicationController {
  const rc = rcFor(dc, dc.status?.latestVersion ?? 0, {
    phase: 'New', created: createdAt, uid: 'rc-uid', resourceVersion: '100', defaulted: false, mutate,
  });
  delete rc.status;
  return rc;
}

/** A pod named `name` labelled/annotated for `rc` (related) or only labelled (unrelated). */
export function deployerPod(rc: V1ReplicationController, phase: string | undefined, opts: { name?: string; related?: boolean } = {}): V1Pod {
  const rcName = rc.metadata!.name!;
  return {
    metadata: {
      name: opts.name ?? `${rcName}-deploy`,
      namespace: rc.metadata!.namespace,
      labels: { [Labels.DeployerPodFor]: rcName },
      annotations: opts.related === false ? {} : { [Annotations.Deployment]: rcName },
    },
    ...(phase ? { status: { phase } } : {}),
  };
}

export function setPhase(rc: V1ReplicationController, phase: string): V1ReplicationController {
  rc.metadata!.annotations![Annotations.Phase] = phase;
  return rc;
}

export function cancel(rc: V1ReplicationController, reason = 'cancelled by the user'): V1ReplicationController {
  rc.metadata!.annotations![Annotations.Cancelled] = 'true';
  rc.metadata!.annotations![Annotations.StatusReason] = reason;
  return rc;
}
