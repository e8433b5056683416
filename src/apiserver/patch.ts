/**
 * Applying the three patch formats a client may send for the main resource and /status. JSON
 * patch (RFC 6902) uses fast-json-patch; merge patch (RFC 7386) is the CLI's; strategic merge
 * patch is smp.ts with the DC's OpenAPI patch metadata. Pure.
 */
import * as jsonPatchModule from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { applyMergePatch } from '../util/merge-patch.js';
import { PatchContentTypes } from '../util/patch-content-types.js';
import { deploymentConfigSchema } from './schema.js';
import { PatchError, strategicMergePatch } from './smp.js';

export { PatchContentTypes };

export type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

/** The patch kind of a Content-Type header, or undefined when it is none of them. */
export function patchKind(contentType: string | undefined): PatchKind | undefined {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  switch (type) {
    case PatchContentTypes.json: return 'json';
    case PatchContentTypes.merge: return 'merge';
    case PatchContentTypes.strategic: return 'strategic';
    case PatchContentTypes.apply: return 'apply';
    default: return undefined;
  }
}

// fast-json-patch is CommonJS: its functions sit on the default export under ESM.
const jsonPatch = ((jsonPatchModule as unknown as { default?: typeof jsonPatchModule }).default ?? jsonPatchModule);

/** Applies a JSON/merge/strategic patch (already parsed) to a copy of `obj`. */
export function applyPatch<T>(obj: T, kind: Exclude<PatchKind, 'apply'>, patch: unknown): T {
  switch (kind) {
    case 'json': {
      if (!Array.isArray(patch)) throw new PatchError('a JSON patch must be a list of operations');
      try {
        return jsonPatch.applyPatch(structuredClone(obj), patch as Operation[], true, false).newDocument;
      } catch (err) {
        throw new PatchError(`the JSON patch could not be applied: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    case 'merge':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw new PatchError('a merge patch must be a JSON object');
      return applyMergePatch(obj, patch) as T;
    case 'strategic':
      return strategicMergePatch(obj, patch, deploymentConfigSchema());
  }
}
