/**
 * The admission webhook's decision on one DeploymentConfig write (docs/webhook.md): OpenShift's API
 * refused a DC whose pod template it would refuse in a ReplicationController
 * (ValidatePodTemplateSpecForRC); a CRD cannot check that, so kube-apiserver judges the template on
 * a dry-run create of such an RC (src/apps/template-probe.ts) and a refusal is the DC's, naming the
 * DC's own fields. Anything else (the RC's namespace is gone, no right to create RCs, an outage)
 * admits the DC with a warning: the controller reports a template the RC refuses when it rolls out,
 * as it does without this webhook. Pure: the probe is injected.
 */
import { Kind } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { replicationControllerProbe, templateCauses } from '../apps/template-probe.js';
import { ApiError } from '../controller/errors.js';
import { invalid, type StatusBody } from '../apiserver/status.js';
import { templateChanged } from '../apiserver/template-check.js';
import { errorMessage } from '../util/error-message.js';
import { isObject } from '../util/is-object.js';

/** The parts of an admission.k8s.io/v1 AdmissionRequest the review reads. */
export interface AdmissionRequest {
  readonly uid: string;
  readonly resource?: { readonly group?: string; readonly resource?: string };
  readonly subResource?: string;
  readonly operation?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: unknown;
  readonly oldObject?: unknown;
}

export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: StatusBody;
  readonly warnings?: string[];
}

/** A body that is not an admission.k8s.io/v1 AdmissionReview with a request: answered 400. */
export class BadReviewError extends Error {
  override readonly name = 'BadReviewError';
}

/** Dry-run creates `rc` in `namespace`; throws what the server answered (ApiError) or why it could not ask. */
export type RcDryRun = (namespace: string, rc: Record<string, unknown>) => Promise<void>;

/** The request of an AdmissionReview; BadReviewError naming what is wrong otherwise. */
export function admissionRequestOf(review: unknown): AdmissionRequest {
  if (!isObject(review)) throw new BadReviewError('the body is not an AdmissionReview object');
  if (review['apiVersion'] !== 'admission.k8s.io/v1' || review['kind'] !== 'AdmissionReview') {
    throw new BadReviewError(`want apiVersion admission.k8s.io/v1 and kind AdmissionReview, got ${JSON.stringify(review['apiVersion'] ?? null)} and ${JSON.stringify(review['kind'] ?? null)}`);
  }
  const request = review['request'];
  if (!isObject(request)) throw new BadReviewError('the AdmissionReview has no request');
  if (typeof request['uid'] !== 'string' || request['uid'] === '') throw new BadReviewError('request.uid: want a non-empty string');
  return request as unknown as AdmissionRequest;
}

/** The AdmissionReview kube-apiserver expects back for `response`. */
export const admissionReviewOf = (response: AdmissionResponse): Record<string, unknown> =>
  ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response });

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Allowed unless kube-apiserver refuses the DC's pod template in an RC. Creates and updates of a
 * DC's main resource are judged, an update only when it changes the template (a DC stored before
 * this webhook, or while it was down, keeps taking every other change); everything else is allowed.
 */
export async function reviewDeploymentConfig(request: AdmissionRequest, dryRunRc: RcDryRun): Promise<AdmissionResponse> {
  const allowed: AdmissionResponse = { uid: request.uid, allowed: true };
  if (request.resource?.resource !== 'deploymentconfigs' || str(request.subResource) !== '') return allowed;
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed;
  const dc = request.object;
  if (!isObject(dc)) return allowed;
  if (request.operation === 'UPDATE' && isObject(request.oldObject)
    && !templateChanged(dc as unknown as DeploymentConfig, request.oldObject as unknown as DeploymentConfig)) return allowed;
  const meta = isObject(dc['metadata']) ? dc['metadata'] : {};
  const namespace = str(request.namespace) || str(meta['namespace']);
  const name = str(meta['name']) || str(request.name) || str(meta['generateName']);
  const probe = replicationControllerProbe(dc, namespace);
  if (!probe || namespace === '') return allowed;
  try {
    await dryRunRc(namespace, probe);
    return allowed;
  } catch (err) {
    const causes = err instanceof ApiError && err.code === 422
      ? templateCauses(err.causes).map((c) => ({ ...c }))
      : undefined;
    if (causes && causes.length > 0) return { uid: request.uid, allowed: false, status: invalid(Kind, name, causes).body };
    if (causes) return allowed;
    return { ...allowed, warnings: [`the pod template of ${Kind} "${name}" was not checked as a ReplicationController's: ${errorMessage(err)}`] };
  }
}

