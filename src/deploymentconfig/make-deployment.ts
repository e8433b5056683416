/**
 * `MakeDeployment` (library-go appsutil, §3.2): the RC for the DC's current latestVersion.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, ApiVersion, Kind, Labels, Phase } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { encodeDeploymentConfig } from '../apis/encoded.js';
import { FatalError } from '../controller/errors.js';
import { rcLabelValue, rcNameFor } from '../util/naming.js';
import { labelFor } from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';

/**
 * Builds the RC for `dc.status.latestVersion` (the caller has already bumped it). The RC always
 * starts at 0 replicas; the deployer scales it. Throws FatalError when the DC cannot be encoded,
 * which is never retried: the DC has to change first.
 */
export function makeDeployment(dc: DeploymentConfig): V1ReplicationController {
  const name = dc.metadata.name ?? '';
  const version = dc.status?.latestVersion ?? 0;
  const rcName = rcNameFor(name, version);

  let encoded: string;
  try {
    encoded = encodeDeploymentConfig(dc);
  } catch (err) {
    throw new FatalError(
      `couldn't make deployment from (potentially invalid) deployment config ${labelFor(dc)}: ${errorMessage(err)}`,
      { cause: err },
    );
  }

  const annotations: Record<string, string> = {
    [Annotations.DeploymentConfig]: name,
    [Annotations.EncodedConfig]: encoded,
    [Annotations.Phase]: Phase.New,
    [Annotations.LatestVersion]: String(version),
    [Annotations.DesiredReplicas]: String(dc.spec.replicas ?? 0),
    [Annotations.DeploymentReplicas]: '0',
  };
  const reason = dc.status?.details?.message;
  if (reason) annotations[Annotations.StatusReason] = reason;
  const ignore = dc.metadata.annotations?.[Annotations.DeployerPodIgnore];
  if (ignore !== undefined) annotations[Annotations.DeployerPodIgnore] = ignore;

  const template = dc.spec.template ?? {};
  const podSpec = structuredClone(template.spec ?? { containers: [] });
  // Only regular containers are trimmed, exactly as OpenShift does.
  for (const c of podSpec.containers ?? []) {
    if (typeof c.image === 'string') c.image = c.image.trim();
  }

  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: {
      name: rcName,
      namespace: dc.metadata.namespace,
      labels: { ...(dc.metadata.labels ?? {}), [Labels.DeploymentConfig]: name },
      annotations,
      ownerReferences: [{
        apiVersion: ApiVersion,
        kind: Kind,
        name,
        uid: dc.metadata.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
      }],
    },
    spec: {
      replicas: 0,
      selector: {
        ...(dc.spec.selector ?? {}),
        [Labels.DeploymentConfigShort]: name,
        [Labels.Deployment]: rcLabelValue(rcName),
      },
      minReadySeconds: dc.spec.minReadySeconds,
      template: {
        metadata: {
          labels: {
            ...(template.metadata?.labels ?? {}),
            [Labels.DeploymentConfigShort]: name,
            [Labels.Deployment]: rcLabelValue(rcName),
          },
          annotations: {
            ...(template.metadata?.annotations ?? {}),
            [Annotations.Deployment]: rcName,
            [Annotations.DeploymentConfig]: name,
            [Annotations.LatestVersion]: String(version),
          },
        },
        spec: podSpec,
      },
    },
  };
}
