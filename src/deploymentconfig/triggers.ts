/**
 * Deciding whether a DC needs a new rollout: the controller's `triggerActivated` (§4.5) and this
 * project's stand-in for the `instantiate` subresource (§7.3), read from an annotation.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import { Annotations, StatusReasons } from '../apis/constants.js';
import type {
  DeploymentCause, DeploymentConfig, DeploymentDetails, DeploymentTriggerImageChangeParams, DeploymentTriggerType,
  InstantiateAck, InstantiateRequest,
} from '../apis/deploymentconfig.js';
import { decodeDeploymentConfig } from '../apis/encoded.js';
import { allImageTriggersResolved, formatTime, hasChangeTrigger, hasImageChangeTrigger } from '../apps/index.js';
import { canonicalJson } from '../util/canonical-json.js';
import { isObject } from '../util/is-object.js';

/** `RecordConfigChangeCause`. */
export const configChangeDetails = (): DeploymentDetails => ({
  message: StatusReasons.ConfigChange, causes: [{ type: 'ConfigChange' }],
});

/** `RecordImageChangeCauses`: one cause per new image, `from` of kind DockerImage. */
export const imageChangeDetails = (images: readonly string[]): DeploymentDetails => ({
  message: StatusReasons.ImageChange,
  causes: images.map((name) => ({ type: 'ImageChange', imageTrigger: { from: { kind: 'DockerImage', name } } })),
});

/**
 * `HasUpdatedImages`: DC container images absent from the latest RC's own containers. The DC
 * image is compared trimmed because makeDeployment trims RC images; OpenShift compares it raw,
 * which would make a whitespace-padded image re-trigger forever (a deliberate, documented fix).
 */
export function updatedImages(dc: DeploymentConfig, rc: V1ReplicationController): string[] {
  const rcImages = new Set((rc.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? ''));
  return (dc.spec.template?.spec?.containers ?? [])
    .map((c) => (c.image ?? '').trim())
    .filter((image) => !rcImages.has(image));
}

/**
 * A template's canonical JSON for comparing templates. A null field is an absent one, and so is an
 * empty list or object, as in OpenShift's comparison of decoded (typed) templates, which the API
 * server had written without empty `omitempty` lists and maps and with every struct: an exported
 * DC applied with a server-side apply keeps the export's `creationTimestamp: null`, which a create
 * or a client-side apply drops; a server-side apply makes null of `resources: {}` where a
 * client-side apply stores `{}`; re-applying a manifest either way must not start a rollout.
 */
const templateJson = (template: unknown): string => canonicalJson(template, { dropEmpty: true });

/**
 * Canonical JSON of the template encoded in each RC, by RC UID: every sync of a DC compares its
 * template with the latest RC's, a dozen times per rollout, and the annotation practically never
 * changes, so it is parsed once. An entry is used only while the annotation is the same text
 * (someone may rewrite it); it then points at the cached RC's current string, so it adds no copy.
 * Bounded: the oldest entries (RCs long gone) go first.
 */
const encodedTemplates = new Map<string, { raw: string; canonical: string }>();
const encodedTemplatesMax = 2048;

function encodedTemplate(rc: V1ReplicationController): string {
  const raw = rc.metadata?.annotations?.[Annotations.EncodedConfig];
  const uid = rc.metadata?.uid;
  const hit = uid === undefined ? undefined : encodedTemplates.get(uid);
  if (hit && raw !== undefined && hit.raw === raw) {
    hit.raw = raw;
    return hit.canonical;
  }
  const canonical = templateJson(decodeDeploymentConfig(rc).spec.template);
  if (uid !== undefined && raw !== undefined) {
    encodedTemplates.delete(uid);
    if (encodedTemplates.size >= encodedTemplatesMax) encodedTemplates.delete(encodedTemplates.keys().next().value!);
    encodedTemplates.set(uid, { raw, canonical });
  }
  return canonical;
}

/** `HasLatestPodTemplate`: deep equality of the template with the one encoded in the RC. Throws DecodeError. */
export function hasLatestPodTemplate(dc: DeploymentConfig, rc: V1ReplicationController): boolean {
  return templateJson(dc.spec.template) === encodedTemplate(rc);
}

/** Longest cause list and message taken over from an RC's encoded config (recordedDetails). */
const recordedCausesMax = 32;
const recordedMessageMax = 1024;

/**
 * The rollout cause recorded in an RC's encoded config, when that config is the DC as it was
 * for this very RC (its latestVersion is the version in the RC's name): the DC controller
 * creates an RC before it stores the bump, so a crash in between leaves the cause only there.
 * Anyone who may patch RCs can rewrite the annotation, so only well-typed strings are taken, and
 * bounded; undefined when there is nothing believable. Pure; never throws.
 */
export function recordedDetails(rc: V1ReplicationController, version: number): DeploymentDetails | undefined {
  let encoded: DeploymentConfig;
  try {
    encoded = decodeDeploymentConfig(rc);
  } catch {
    return undefined;
  }
  const status: unknown = encoded.status;
  if (!isObject(status) || status.latestVersion !== version || !isObject(status.details)) return undefined;
  const { message, causes } = status.details;
  const details: DeploymentDetails = {};
  if (typeof message === 'string') details.message = message.slice(0, recordedMessageMax);
  if (Array.isArray(causes)) {
    details.causes = causes.slice(0, recordedCausesMax).flatMap((cause): DeploymentCause[] => {
      if (!isObject(cause) || typeof cause.type !== 'string' || !causeTypes.includes(cause.type)) return [];
      const from = isObject(cause.imageTrigger) && isObject(cause.imageTrigger.from) ? cause.imageTrigger.from : undefined;
      if (!from) return [{ type: cause.type as DeploymentCause['type'] }];
      const ref: Record<string, string> = {};
      for (const field of ['kind', 'name', 'namespace'] as const) {
        if (typeof from[field] === 'string') ref[field] = (from[field] as string).slice(0, recordedMessageMax);
      }
      return [{ type: cause.type as DeploymentCause['type'], imageTrigger: { from: ref } }];
    });
  }
  return details.message === undefined && details.causes === undefined ? undefined : details;
}

const causeTypes: readonly string[] = ['ConfigChange', 'ImageChange', 'Manual'];

export interface TriggerDecision {
  /** Bump latestVersion (details are then in `details`). */
  trigger: boolean;
  /** Initial rollout waiting for ImageChange triggers to resolve. */
  skip: boolean;
  details?: DeploymentDetails;
}

/**
 * `triggerActivated(config, latestExists, latestRC)`. Pure; a decode error of the latest RC's
 * encoded config is thrown (DecodeError) and the sync is retried.
 */
export function triggerActivated(
  dc: DeploymentConfig, latestExists: boolean, latest: V1ReplicationController | undefined,
): TriggerDecision {
  const no: TriggerDecision = { trigger: false, skip: false };
  if (dc.spec.paused) return no;
  const imageTrigger = hasImageChangeTrigger(dc);
  const configTrigger = hasChangeTrigger(dc);
  if (!imageTrigger && !configTrigger) return no;

  if ((dc.status?.latestVersion ?? 0) === 0) {
    if (imageTrigger) {
      // Yes, a ConfigChange cause even though the images enabled the rollout (OpenShift does this).
      if (allImageTriggersResolved(dc)) return { trigger: true, skip: false, details: configChangeDetails() };
      return { trigger: false, skip: true };
    }
    return { trigger: true, skip: false, details: configChangeDetails() };
  }

  if (!latestExists || !latest) return no;

  if (imageTrigger) {
    const images = updatedImages(dc, latest);
    if (images.length > 0) return { trigger: true, skip: false, details: imageChangeDetails(images) };
  }
  if (configTrigger && !hasLatestPodTemplate(dc, latest)) {
    return { trigger: true, skip: false, details: configChangeDetails() };
  }
  return no;
}

// ---------------------------------------------------------------------------------------------
// Instantiate requests (annotation deploy.dcctl.io/instantiate).

/** A parsed request, or a request whose annotation could not be understood (→ Rejected). */
export type ParsedInstantiateRequest =
  | { ok: true; request: InstantiateRequest }
  | { ok: false; id: string; message: string };

const triggerTypes: readonly DeploymentTriggerType[] = ['ConfigChange', 'ImageChange'];

/**
 * Reads the instantiate annotation. Absent or blank → undefined. A value that is not JSON is
 * `{id: value}`; a JSON object must carry a non-empty string `id` and well-typed fields. When
 * the value is unusable the raw value serves as the id, so the rejection is acknowledged once.
 */
export function parseInstantiateRequest(dc: DeploymentConfig): ParsedInstantiateRequest | undefined {
  const raw = dc.metadata.annotations?.[Annotations.InstantiateRequest];
  if (raw === undefined || raw.trim() === '') return undefined;
  const bad = (why: string): ParsedInstantiateRequest => ({
    ok: false, id: raw, message: `invalid instantiate request in annotation "${Annotations.InstantiateRequest}": ${why}`,
  });
  const text = raw.trim();
  if (!text.startsWith('{') && !text.startsWith('[') && !text.startsWith('"')) return { ok: true, request: { id: raw } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return bad(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed === 'string') return parsed.trim() ? { ok: true, request: { id: parsed } } : bad('empty id');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return bad('expected a JSON object with an "id"');
  const obj = parsed as Record<string, unknown>;
  if (typeof obj.id !== 'string' || obj.id.trim() === '') return bad('"id" must be a non-empty string');
  for (const key of ['latest', 'force'] as const) {
    if (obj[key] !== undefined && typeof obj[key] !== 'boolean') return bad(`"${key}" must be a boolean`);
  }
  const exclude = obj.excludeTriggers;
  if (exclude !== undefined && (!Array.isArray(exclude) || exclude.some((t) => !triggerTypes.includes(t as DeploymentTriggerType)))) {
    return bad('"excludeTriggers" must be a list of ConfigChange/ImageChange');
  }
  const request: InstantiateRequest = { id: obj.id };
  if (obj.latest !== undefined) request.latest = obj.latest as boolean;
  if (obj.force !== undefined) request.force = obj.force as boolean;
  if (exclude !== undefined) request.excludeTriggers = exclude as DeploymentTriggerType[];
  return { ok: true, request };
}

/** The request to handle now: present and not yet acknowledged (replays are ignored). */
export function pendingInstantiateRequest(dc: DeploymentConfig): ParsedInstantiateRequest | undefined {
  const parsed = parseInstantiateRequest(dc);
  if (!parsed) return undefined;
  const id = parsed.ok ? parsed.request.id : parsed.id;
  return dc.status?.lastInstantiateRequest?.id === id ? undefined : parsed;
}

const sameFrom = (a: DeploymentTriggerImageChangeParams, b: DeploymentTriggerImageChangeParams): boolean =>
  a.from.name === b.from.name && a.from.namespace === b.from.namespace;

const imageParams = (dc: DeploymentConfig): DeploymentTriggerImageChangeParams[] =>
  (dc.spec.triggers ?? []).flatMap((t) => (t.type === 'ImageChange' && t.imageChangeParams ? [t.imageChangeParams] : []));

/** `hasUpdatedTriggers`: an ImageChange trigger whose (namespace, name) the decoded DC lacks. */
const hasUpdatedTriggers = (current: DeploymentConfig, previous: DeploymentConfig): boolean =>
  imageParams(current).some((c) => !imageParams(previous).some((p) => sameFrom(c, p)));

/** `triggeredByDifferentImage`: the decoded trigger with the same from resolved another image. */
function triggeredByDifferentImage(params: DeploymentTriggerImageChangeParams, previous: DeploymentConfig): boolean {
  const match = imageParams(previous).find((p) => sameFrom(p, params));
  return match !== undefined && (match.lastTriggeredImage ?? '') !== (params.lastTriggeredImage ?? '');
}

/** Outcome of the instantiate rules (§7.3 steps 1 and 3–5). */
export type InstantiateDecision =
  | { outcome: 'Triggered'; details: DeploymentDetails; message: string }
  | { outcome: 'NotTriggered' | 'Rejected'; message: string };

const causeMessage: Record<DeploymentCause['type'], string> = {
  ConfigChange: StatusReasons.ConfigChange,
  ImageChange: StatusReasons.ImageChange,
  Manual: StatusReasons.ManualChange,
};

/**
 * Decides an instantiate request (`canTrigger`). `decoded` is the DC encoded in the latest RC, or
 * the DC itself when latestVersion is 0. Image triggers count as resolved through their
 * lastTriggeredImage; `latest` resolution (§7.3 step 2) has already been written into the DC by
 * then (sync.ts `resolveLatestImages`).
 */
export function decideInstantiate(dc: DeploymentConfig, decoded: DeploymentConfig, request: InstantiateRequest): InstantiateDecision {
  const name = dc.metadata.name ?? '';
  if (dc.spec.paused) {
    return { outcome: 'Rejected', message: `deployment config "${name}" is paused - unpause to request a new deployment` };
  }
  const latestVersion = dc.status?.latestVersion ?? 0;
  let causes: DeploymentCause[] = [];
  let count = 0;
  let resolved = 0;
  let byImage = false;
  for (const params of imageParams(dc)) {
    count++;
    if (!params.lastTriggeredImage) continue;
    resolved++;
    if (!params.automatic) continue;
    if (latestVersion === 0 || hasUpdatedTriggers(dc, decoded) || triggeredByDifferentImage(params, decoded)) byImage = true;
    // Quirk kept from OpenShift: once one trigger changed, every later automatic one is a cause too.
    if (!byImage) continue;
    causes.push({
      type: 'ImageChange',
      imageTrigger: { from: { kind: 'ImageStreamTag', name: params.from.name, namespace: params.from.namespace } },
    });
  }
  if (count !== resolved) {
    return { outcome: 'Rejected', message: `cannot trigger a deployment for "${name}" because it contains unresolved images` };
  }
  if (request.force) {
    causes = [{ type: 'Manual' }];
  } else {
    let byConfig = false;
    if (hasChangeTrigger(dc) && !byImage) {
      if (latestVersion === 0 || templateJson(dc.spec.template) !== templateJson(decoded.spec.template)) {
        byConfig = true;
        causes = [{ type: 'ConfigChange' }];
      }
    }
    if (!byConfig && !byImage) {
      return { outcome: 'NotTriggered', message: `deployment config "${name}" cannot be instantiated` };
    }
  }
  const message = causeMessage[causes[0]!.type];
  return { outcome: 'Triggered', details: { message, causes }, message };
}

/** The acknowledgement written to status.lastInstantiateRequest. */
export function instantiateAck(id: string, decision: InstantiateDecision, latestVersion: number, now: Date): InstantiateAck {
  return { id, outcome: decision.outcome, message: decision.message, latestVersion, time: formatTime(now) };
}
