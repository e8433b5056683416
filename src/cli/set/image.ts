/** `set image` pure parts, with kubectl's rules: `CONTAINER=IMAGE` pairs, `*` for every container. */
import type { V1PodSpec } from '@kubernetes/client-node';
import { CliError } from '../errors.js';

/** Parses `c1=img1 c2=img2`; at least one pair is required. */
export function parseContainerImages(pairs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw new CliError(`invalid image pair "${pair}": expected CONTAINER_NAME=CONTAINER_IMAGE`);
    out.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  if (out.size === 0) throw new CliError('at least one image update is required');
  return out;
}

/**
 * Sets the images in `spec` (containers and init containers). Returns kubectl's per-container
 * errors ("unable to find container named ..."); the other pairs still apply.
 */
export function setImages(spec: V1PodSpec, images: ReadonlyMap<string, string>): string[] {
  const errors: string[] = [];
  for (const [name, image] of images) {
    let found = false;
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      if (name === '*' || c.name === name) {
        c.image = image;
        found = true;
      }
    }
    if (!found) errors.push(`error: unable to find container named "${name}"`);
  }
  return errors;
}
