/**
 * The controller's API calls (src/kube/controller-kube.ts) on client-node, for the kubeconfigs
 * the small JSON client does not handle: exec and auth-provider plugins, proxies, merged files.
 * The manager imports this module only for those, so that no other controller loads client-node.
 */
import {
  AdmissionregistrationV1Api, AuthenticationV1Api, AuthorizationV1Api, CoordinationV1Api, RbacAuthorizationV1Api,
  Watch, type KubeConfig, type KubernetesObject, type V1ReplicationController,
} from '@kubernetes/client-node';
import { DryRunIgnoringUnknownFields, type ControllerKube, type ControllerKubeOptions } from './controller-kube.js';
import { makeApiClient } from './client.js';
import { makeClients, plain } from './clients.js';
import { wrapApi } from './errors.js';
import { impersonatingImageStreamClients, KubeImageStreamClient } from './imagestreams.js';
import { listFor } from './informer-factory.js';

export function clientNodeControllerKube(kc: KubeConfig, opts: ControllerKubeOptions): ControllerKube {
  const userAgent = opts.fieldManager;
  const clients = makeClients(kc, { fieldManager: opts.fieldManager, userAgent, dcGroup: opts.dcGroup });
  const rbac = makeApiClient(kc, RbacAuthorizationV1Api, { userAgent });
  const admission = makeApiClient(kc, AdmissionregistrationV1Api, { userAgent });
  const authn = makeApiClient(kc, AuthenticationV1Api, { userAgent });
  const authz = makeApiClient(kc, AuthorizationV1Api, { userAgent });
  return {
    deploymentConfigs: clients.deploymentConfigs,
    replicationControllers: clients.replicationControllers,
    pods: clients.pods,
    events: clients.events,
    imageStreams: new KubeImageStreamClient(clients.customObjects, opts.fieldManager),
    imageStreamsAs: impersonatingImageStreamClients(kc, opts.fieldManager),
    deployerAccess: {
      createServiceAccount: (namespace, body) => plain(clients.core.createNamespacedServiceAccount({ namespace, body })),
      createRoleBinding: (namespace, body) => plain(rbac.createNamespacedRoleBinding({ namespace, body })),
    },
    leases: makeApiClient(kc, CoordinationV1Api),
    admissionPolicies: {
      policy: (name) => wrapApi(admission.readValidatingAdmissionPolicy({ name })),
      binding: (name) => wrapApi(admission.readValidatingAdmissionPolicyBinding({ name })),
    },
    accessReviews: {
      createTokenReview: (body) => wrapApi(authn.createTokenReview({ body })),
      createSubjectAccessReview: (body) => wrapApi(authz.createSubjectAccessReview({ body })),
    },
    dryRunCreateRc: async (namespace, rc) => {
      await wrapApi(clients.core.createNamespacedReplicationController({ namespace, body: rc as V1ReplicationController, ...DryRunIgnoringUnknownFields }));
    },
    list: (resource, namespace) => listFor<KubernetesObject>(clients, resource, namespace)(),
    watch: new Watch(kc),
  };
}
