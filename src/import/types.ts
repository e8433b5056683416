/**
 * Shapes shared by the import pipeline (`dcctl import`): the objects read from an OpenShift
 * export, where each came from, and what the import did with it.
 */
import { isObject } from '../util/is-object.js';

/** A Kubernetes object as plain JSON. */
export type KubeObject = Record<string, unknown> & { apiVersion?: unknown; kind?: unknown; metadata?: unknown };

/** Where an object was found, for messages: `export.yaml (document 2, items[3])`. */
export interface Origin {
  readonly source: string;
  /** 1-based document number in a multi-document YAML stream. */
  readonly document: number;
  /** Path inside the document (`items[3]`, `objects[0]`), empty for the document itself. */
  readonly path: string;
}

/** Renders an origin for messages. */
export function formatOrigin(o: Origin): string {
  return `${o.source} (document ${o.document}${o.path ? `, ${o.path}` : ''})`;
}

/** What `import` did with one object. */
export type Outcome = 'imported' | 'changed' | 'skipped';

/** The report line of one object, and the object itself unless it was skipped. */
export interface ImportEntry {
  /** kubectl-style reference: `deploymentconfig.apps.openshift.io/web`, `service/web`. */
  readonly ref: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** Empty when the object has only `generateName` (the server picks the name on create). */
  readonly name: string;
  readonly generateName?: string;
  readonly origin: Origin;
  outcome: Outcome;
  /** Present unless skipped. */
  object?: KubeObject;
  /** What was rewritten or removed. */
  readonly changes: string[];
  /** Features this project handles differently from OpenShift, or not at all. */
  readonly notes: string[];
  /** Why the object was skipped. */
  reason?: string;
  /** What to use instead (skipped objects). */
  hint?: string;
  /** Made by a Template: the `${{NAME}}` values that stayed strings, not being JSON (template.ts ProcessedObject). */
  readonly notJsonValues?: ReadonlyMap<string, readonly string[]>;
}

/** A problem that makes the whole import fail before anything is printed or applied. */
export interface InputProblem {
  readonly origin: Origin | { readonly source: string };
  readonly message: string;
}

/** Raised by the pipeline when the input is unusable; carries every problem found. */
export class ImportInputError extends Error {
  override readonly name = 'ImportInputError';
  constructor(readonly problems: readonly InputProblem[]) {
    super(problems.map((p) => `${'document' in p.origin ? formatOrigin(p.origin) : p.origin.source}: ${p.message}`).join('\n'));
  }
}

/** Everything the pipeline produced. */
export interface ImportResult {
  readonly entries: ImportEntry[];
  /** Substituted `message` of each processed Template, by template name. */
  readonly templateMessages: { template: string; message: string }[];
  /** Notes that concern the import as a whole (printed once after the entries). */
  readonly notes: string[];
}

export { isObject };

/** The object's metadata.annotations or metadata.labels map as it is (mutable), or {} when absent. */
export function metadataMap(o: KubeObject, field: 'annotations' | 'labels'): Record<string, unknown> {
  const meta = isObject(o['metadata']) ? o['metadata'] : undefined;
  return meta && isObject(meta[field]) ? meta[field] : {};
}
