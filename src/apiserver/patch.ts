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

/**
 * kube-apiserver's bounds on a JSON patch: at most 10000 operations (a 413), and at most as many
 * bytes added by `copy` operations as a request body may have (its JSONPatchMaxCopyBytes): each
 * copy can double the object, so 30 copies of a small DC would need a terabyte.
 */
export const MaxJsonPatchOperations = 10000;
export const MaxJsonPatchCopyBytes = 3 << 20;

/** A JSON patch beyond the number of operations kube-apiserver takes; the server answers 413. */
export class PatchTooLargeError extends PatchError {}

/** Applies a JSON/merge/strategic patch (already parsed) to a copy of `obj`. */
export function applyPatch<T>(obj: T, kind: Exclude<PatchKind, 'apply'>, patch: unknown): T {
  switch (kind) {
    case 'json':
      return applyJsonPatch(obj, patch);
    case 'merge':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw new PatchError('a merge patch must be a JSON object');
      return applyMergePatch(obj, patch) as T;
    case 'strategic':
      return strategicMergePatch(obj, patch, deploymentConfigSchema());
  }
}

function applyJsonPatch<T>(obj: T, patch: unknown): T {
  if (!Array.isArray(patch)) throw new PatchError('a JSON patch must be a list of operations');
  if (patch.length > MaxJsonPatchOperations) {
    throw new PatchTooLargeError(`The allowed maximum operations in a JSON patch is ${MaxJsonPatchOperations}, got ${patch.length}`);
  }
  const ops = patch as Operation[];
  let doc = structuredClone(obj);
  let copied = 0;
  try {
    for (const [index, op] of ops.entries()) {
      if (op !== null && typeof op === 'object' && op.op === 'copy') {
        // Measured before the copy is made, so the bound holds before anything is allocated.
        copied += JSON.stringify(jsonPatch.getValueByPointer(doc, op.from) ?? null).length;
        if (copied > MaxJsonPatchCopyBytes) {
          throw new PatchError(`the JSON patch could not be applied: its copy operations add more than ${MaxJsonPatchCopyBytes} bytes (operation ${index})`);
        }
      }
      doc = jsonPatch.applyOperation(doc, op, true, true, true, index).newDocument;
    }
    return doc;
  } catch (err) {
    if (err instanceof PatchError) throw err;
    throw new PatchError(`the JSON patch could not be applied: ${(err as Error).message.split('\n')[0]}`);
  }
}
