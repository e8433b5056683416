/**
 * Everything the controller (src/manager.ts) sends to the API server, on one of two clients: the
 * small JSON client of src/kube/rest.ts for every kubeconfig it handles (`restControllerKube`),
 * or client-node for the rest (exec and auth-provider plugins, proxies, merged files:
 * src/kube/controller-client-node.ts, which the manager imports only then).
 *
 * Why the split reaches this far: client-node (its generated API and models, node-fetch and its
 * URL stack) was the largest part of an idle controller's code; not loading it took an idle
 * controller from 93 to 81 MiB of RSS. So nothing on the controller's path may import a
 * client-node value at run time; its types are free (design.md §1.1).
 */
import type { DeploymentConfigClient, EventClient, PodClient, ReplicationControllerClient } from '../controller/ports.js';
import type { ImageStreamClient } from '../image/ports.js';
import type { AdmissionPolicyReads } from './cross-namespace-gate.js';
import { restAdmissionPolicyReads } from './cross-namespace-gate.js';
import type { DeployerAccessWriters } from './deployer-access.js';
import { restDeployerAccessWriters } from './deployer-access.js';
import type { InformerList } from './informer-factory.js';
import type { WatchLike } from './informer.js';
import { restLeaseApi, type LeaseApi } from './leader-election.js';
import { restAccessReviewApi, type AccessReviewApi } from './metrics-server.js';
import { restControllerClients } from './rest-clients.js';
import { restImageStreamClient } from './rest-imagestreams.js';
import { corePath } from './rest-paths.js';
import type { RestClient } from './rest.js';

/** The query of a dry-run write whose unknown fields are dropped, not reported. */
export const DryRunIgnoringUnknownFields = { dryRun: 'All', fieldValidation: 'Ignore' } as const;

export interface ControllerKube {
  readonly deploymentConfigs: DeploymentConfigClient;
  readonly replicationControllers: ReplicationControllerClient;
  readonly pods: PodClient;
  readonly events: EventClient;
  readonly imageStreams: ImageStreamClient;
  /** ImageStreams acting as `user` (impersonation: pod-less tagImages hooks write as the deployer). */
  readonly imageStreamsAs: (user: string) => ImageStreamClient;
  readonly deployerAccess: DeployerAccessWriters;
  readonly leases: LeaseApi;
  readonly admissionPolicies: AdmissionPolicyReads;
  readonly accessReviews: AccessReviewApi;
  /**
   * Dry-run create of an RC (src/apps/template-probe.ts) with unknown fields ignored: how the
   * admission webhook has kube-apiserver judge a DC's pod template (src/webhook/review.ts).
   */
  readonly dryRunCreateRc: (namespace: string, rc: Record<string, unknown>) => Promise<void>;
  /** The informers' lists and watches. */
  readonly list: InformerList;
  readonly watch: WatchLike;
}

export interface ControllerKubeOptions {
  /** Sent as `fieldManager` on the controller's writes (and as its User-Agent). */
  readonly fieldManager: string;
  /** Group that stores DeploymentConfigs (docs/apiserver.md). @default apps.openshift.io */
  readonly dcGroup?: string;
}

export function restControllerKube(rest: RestClient, opts: ControllerKubeOptions): ControllerKube {
  const lean = restControllerClients(rest, { fieldManager: opts.fieldManager, dcGroup: opts.dcGroup });
  return {
    deploymentConfigs: lean.deploymentConfigs,
    replicationControllers: lean.replicationControllers,
    pods: lean.pods,
    events: lean.events,
    imageStreams: restImageStreamClient(rest, opts.fieldManager),
    imageStreamsAs: (user) => restImageStreamClient(rest.impersonating(user), opts.fieldManager),
    deployerAccess: restDeployerAccessWriters(rest),
    leases: restLeaseApi(rest),
    admissionPolicies: restAdmissionPolicyReads(rest),
    accessReviews: restAccessReviewApi(rest),
    dryRunCreateRc: async (namespace, rc) => {
      await rest.request('POST', corePath(namespace, 'replicationcontrollers'), { query: DryRunIgnoringUnknownFields, body: rc });
    },
    list: (resource, _namespace, path) => lean.list(path, resource.labelSelector, resource.fieldSelector),
    watch: rest,
  };
}
