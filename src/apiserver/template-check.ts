/**
 * The pod template of a DC written through the front, judged as OpenShift's API judged it: as the
 * template of a ReplicationController (ValidatePodTemplateSpecForRC), which the storage CRD cannot
 * check. kube-apiserver does, on a dry-run create of such an RC (src/apps/template-probe.ts), made
 * as the requesting user like every storage call: a refusal is the DC's Invalid, with the RC's
 * causes, whose field paths (`spec.template...`) are the DC's. Anything else (the user may not
 * create RCs, an outage) leaves the DC to the storage, as before this check.
 */
import { Kind } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { replicationControllerProbe, templateCauses } from '../apps/template-probe.js';
import { canonicalJson } from '../util/canonical-json.js';
import { ApiStatusError, invalid, type StatusCause } from './status.js';
import type { UserStorage } from './storage.js';

/**
 * Throws the DC's Invalid when kube-apiserver refuses its template in an RC. `storageFirst`, when
 * given, dry-runs the write itself and is called only then: what the storage refuses (a strict
 * decoding error, a schema or CEL rule) is answered first, as kube-apiserver decodes and checks the
 * object's own rules before anything else; only a write it takes gets the template's refusal.
 */
export async function checkPodTemplate(storage: UserStorage, dc: DeploymentConfig, namespace: string, storageFirst?: () => Promise<unknown>): Promise<void> {
  const probe = replicationControllerProbe(dc as unknown as Record<string, unknown>, namespace);
  if (!probe) return;
  // Quiet and Ignore: the probe's warnings (PodSecurity's on a workload, unknown fields the DC's
  // own write reports under the client's directive) are not the DC's to relay.
  let causes: StatusCause[];
  try {
    await storage.json('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/replicationcontrollers`,
      { body: probe, query: { dryRun: 'All', fieldValidation: 'Ignore' }, quiet: true });
    return;
  } catch (err) {
    if (!(err instanceof ApiStatusError) || err.code !== 422) return;
    causes = templateCauses(err.body.details?.causes);
  }
  if (causes.length === 0) return;
  await storageFirst?.();
  throw invalid(Kind, dc.metadata.name ?? dc.metadata.generateName ?? '', causes);
}

/** Whether a write changes the template (an update that leaves it is not judged again). */
export const templateChanged = (next: DeploymentConfig, stored: DeploymentConfig): boolean =>
  canonicalJson(next.spec?.template ?? null) !== canonicalJson(stored.spec?.template ?? null);
