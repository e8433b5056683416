/**
 * Applying ImageChange triggers to a DC (design.md §7.2 and §7.3 step 2): OpenShift's DC reactor
 * (`UpdateDeploymentConfigImages`) and the image part of `instantiate` with `latest=true`. Pure:
 * tags are resolved through an injected ImageTagResolver.
 *
 * Both work on the DC as STORED (not defaulted): the result is written back with a spec update,
 * and writing defaults the user never set would show up as spurious diffs.
 */
import type { V1PodSpec } from '@kubernetes/client-node';
import type { DeploymentConfig, DeploymentTriggerImageChangeParams } from '../apis/deploymentconfig.js';
import { objectKey } from '../util/keys.js';
import { parseImageStreamTagName, type ImageTagResolver } from './resolve.js';

/** One ImageChange trigger on an ImageStreamTag, with its namespace defaulted to the DC's. */
export interface ImageStreamTagTrigger {
  readonly params: DeploymentTriggerImageChangeParams;
  readonly namespace: string;
  /** `stream:tag`. */
  readonly name: string;
  readonly stream: string;
}

/**
 * The DC's ImageChange triggers whose `from` is an ImageStreamTag (kind defaults to it), in
 * order. The returned `params` are the DC's own objects: mutating them mutates `dc`.
 */
export function imageStreamTagTriggers(dc: DeploymentConfig): ImageStreamTagTrigger[] {
  const out: ImageStreamTagTrigger[] = [];
  for (const trigger of dc.spec?.triggers ?? []) {
    const params = trigger.imageChangeParams;
    if (trigger.type !== 'ImageChange' || !params?.from) continue;
    if ((params.from.kind || 'ImageStreamTag') !== 'ImageStreamTag') continue;
    const name = params.from.name ?? '';
    const parsed = parseImageStreamTagName(name);
    if (!parsed) continue;
    out.push({ params, namespace: params.from.namespace || dc.metadata.namespace || '', name, stream: parsed.stream });
  }
  return out;
}

/** Keys (`namespace/stream`) of the ImageStreams the DC's triggers reference, without duplicates. */
export function referencedImageStreams(dc: DeploymentConfig): string[] {
  return [...new Set(imageStreamTagTriggers(dc).map((t) => objectKey(t.namespace, t.stream)))];
}

/**
 * Sets the image of every container and init container named in `names` to `image`. Names that
 * match nothing are ignored, as OpenShift does. Returns whether anything changed.
 */
export function setContainerImages(spec: V1PodSpec | undefined, names: readonly string[], image: string): boolean {
  if (!spec) return false;
  let changed = false;
  const wanted = new Set(names);
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    if (wanted.has(c.name) && c.image !== image) {
      c.image = image;
      changed = true;
    }
  }
  return changed;
}

/** Outcome of the reactor. */
export interface TriggerUpdate {
  /** The updated copy of the DC, when something changed and every trigger could be resolved. */
  readonly dc?: DeploymentConfig;
  /** `namespace/stream:tag` of automatic triggers that never resolved (nothing is written then). */
  readonly unresolved: string[];
}

/**
 * The image trigger controller's DC reactor (§7.2): for every AUTOMATIC ImageStreamTag trigger,
 * resolve its tag; unresolvable with no lastTriggeredImage yet → nothing is written at all
 * (`unresolved` lists them); unresolvable but resolved before → the last image is kept. Then
 * `lastTriggeredImage` and the named containers/init containers are set to the image. Paused DCs
 * are updated too (the DC controller rolls them out on resume).
 */
export function applyAutomaticTriggers(input: DeploymentConfig, resolve: ImageTagResolver): TriggerUpdate {
  const dc = structuredClone(input);
  const unresolved: string[] = [];
  let changed = false;
  for (const t of imageStreamTagTriggers(dc)) {
    if (!t.params.automatic) continue;
    let ref = resolve(t.namespace, t.name);
    if (!ref) {
      if (!t.params.lastTriggeredImage) {
        unresolved.push(`${t.namespace}/${t.name}`);
        continue;
      }
      ref = t.params.lastTriggeredImage;
    }
    if (t.params.lastTriggeredImage !== ref) {
      t.params.lastTriggeredImage = ref;
      changed = true;
    }
    if (setContainerImages(dc.spec.template?.spec, t.params.containerNames ?? [], ref)) changed = true;
  }
  if (unresolved.length > 0) return { unresolved };
  return changed ? { dc, unresolved } : { unresolved };
}

/** Options of `resolveForInstantiate`, from the instantiate request. */
export interface InstantiateResolveOptions {
  /** Resolve non-automatic triggers (and paused DCs) too. */
  readonly force: boolean;
  /** The request excludes ImageChange triggers. */
  readonly excludeImageChange: boolean;
}

/**
 * Instantiate with `latest=true`, step 2 of §7.3: each trigger (all of them when forced, else
 * only automatic ones of an unpaused DC) whose tag resolves to an image other than its
 * lastTriggeredImage gets that image in its containers and lastTriggeredImage. Unresolvable
 * triggers are skipped. Returns the updated copy, or undefined when nothing changed.
 */
export function resolveForInstantiate(
  input: DeploymentConfig, resolve: ImageTagResolver, opts: InstantiateResolveOptions,
): DeploymentConfig | undefined {
  if (opts.excludeImageChange) return undefined;
  const dc = structuredClone(input);
  let changed = false;
  for (const t of imageStreamTagTriggers(dc)) {
    if (!opts.force && (dc.spec.paused || !t.params.automatic)) continue;
    const ref = resolve(t.namespace, t.name);
    if (!ref || ref === t.params.lastTriggeredImage) continue;
    setContainerImages(dc.spec.template?.spec, t.params.containerNames ?? [], ref);
    t.params.lastTriggeredImage = ref;
    changed = true;
  }
  return changed ? dc : undefined;
}
