/**
 * Processing of OpenShift `Template`s the way `oc process` does it locally (openshift-apiserver
 * `templateprocessing.Processor`): parameter values from the user, else `value`, else the
 * `expression` generator; `required` parameters without a value are errors; `${NAME}` is replaced
 * inside any string (and map key), `${{NAME}}` as a whole string is replaced by the JSON value of
 * the parameter (kept as a string when it is not valid JSON); hard-coded `metadata.namespace` is
 * removed unless it references a parameter; the template's `labels` (substituted) are added to
 * every object's `metadata.labels`, overwriting; `message` is substituted. A name declared more
 * than once is taken as OpenShift took it (its validation has no uniqueness rule): `--param` sets
 * the first declaration (`GetParameterByName`), each declaration is generated and checked for
 * `required` on its own, and substitution uses the last one (the processor's map of parameters).
 */
import { GeneratorError, generateExpression, type RandomInt } from './generator.js';
import type { FoundObject } from './parse.js';
import { formatOrigin, isObject, type InputProblem, type KubeObject, type Origin } from './types.js';

const stringParameterExp = /\$\{([a-zA-Z0-9_]+?)\}/g;
const nonStringParameterExp = /^\$\{\{([a-zA-Z0-9_]+)\}\}$/;
const parameterNameExp = /^[a-zA-Z0-9_]+$/;

/** The first parameter reference in `s` (`${NAME}` or `${{NAME}}`), as substitution would find it; null when none. */
export function parameterReferenceIn(s: string): string | null {
  // The whole-string form without its anchors, then the embedded form.
  return new RegExp(`${nonStringParameterExp.source.slice(1, -1)}|${stringParameterExp.source}`).exec(s)?.[0] ?? null;
}

/** `kind: Template` in either the legacy (`v1`) or the group form. */
/** A Template's `metadata.name`, if it has one. */
export function templateNameOf(template: KubeObject): string | undefined {
  const meta = template.metadata;
  return isObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
}

export function isTemplate(obj: KubeObject): boolean {
  return obj.kind === 'Template' && (obj.apiVersion === 'v1' || obj.apiVersion === 'template.openshift.io/v1');
}

/** A template parameter after decoding. */
export interface TemplateParameter {
  name: string;
  value: string;
  generate: string;
  from: string;
  required: boolean;
}

/** The parameter names a template declares (for `--param` checks). */
export function parameterNames(template: KubeObject): string[] {
  const params = template['parameters'];
  if (!Array.isArray(params)) return [];
  return params.flatMap((p) => (isObject(p) && typeof p['name'] === 'string' ? [p['name']] : []));
}

/** An object produced by a template; `keepNamespace` when its namespace came from a parameter. */
export interface ProcessedObject extends FoundObject {
  readonly keepNamespace: boolean;
  /** What processing changed beyond substitution, for the object's report (`changed:` lines). */
  readonly changes?: readonly string[];
  /** The name of the Template that made it. */
  readonly template: string;
  /**
   * The values `${{NAME}}` references took as strings because they are not JSON (as oc process
   * does), with the parameters that gave them: a field that refuses such a string names them.
   */
  readonly notJsonValues?: ReadonlyMap<string, readonly string[]>;
}

export interface ProcessedTemplate {
  readonly name: string;
  readonly objects: ProcessedObject[];
  readonly message: string;
  /** Final value of every parameter, including generated ones. */
  readonly values: ReadonlyMap<string, string>;
  readonly problems: InputProblem[];
  /** What the report says about input that was taken as OpenShift took it (repeated parameters). */
  readonly notes: string[];
}

/**
 * Processes `template` with the user's values (which must already be checked to be declared by
 * some template). Problems are returned, not thrown, so every template's problems are reported.
 */
export function processTemplate(template: KubeObject, origin: Origin, userValues: ReadonlyMap<string, string>, random: RandomInt): ProcessedTemplate {
  const name = templateNameOf(template) ?? '<unnamed>';
  const problems: InputProblem[] = [];
  // Paths inside the Template, below its own (`items[1].objects[0]` in a List of Templates).
  const within = (path: string): Origin => ({ ...origin, path: origin.path ? `${origin.path}.${path}` : path });
  const problem = (path: string, message: string) => problems.push({ origin: within(path), message: `Template "${name}": ${message}` });
  const notes: string[] = [];
  const result = (objects: ProcessedObject[] = [], message = '', values = new Map<string, string>()): ProcessedTemplate =>
    ({ name, objects, message, values, problems, notes });

  const params = decodeParameters(template['parameters'], problem);
  if (problems.length > 0) return result();

  const declarations = new Map<string, number[]>();
  params.forEach((p, i) => declarations.set(p.name, [...(declarations.get(p.name) ?? []), i]));
  for (const [paramName, at] of declarations) {
    const user = userValues.get(paramName);
    const first = params[at[0] ?? 0];
    if (user !== undefined && first) {
      first.value = user;
      first.generate = '';
    }
  }
  // Declarations whose value was generated: the note about a repeated name must not print it.
  const generated = new Set<number>();
  params.forEach((p, i) => {
    if (p.value !== '') return;
    if (p.generate !== '') {
      if (p.generate !== 'expression') {
        problem(`parameters[${i}]`, `unknown generator name '${p.generate}' for parameter ${p.name} (only "expression" exists)`);
        return;
      }
      try {
        p.value = generateExpression(p.from, random);
        generated.add(i);
      } catch (err) {
        if (!(err instanceof GeneratorError)) throw err;
        problem(`parameters[${i}]`, `cannot generate a value for parameter ${p.name} from "${p.from}": ${err.message}`);
        return;
      }
    }
    if (p.value === '' && p.required) {
      const first = declarations.get(p.name)?.[0] ?? i;
      const hint = first === i ? '' : `; parameters[${first}] declares it too, and --param sets only the first declaration, as oc process does: remove the repeated declaration`;
      problem(`parameters[${i}]`, `parameter ${p.name} is required and must be specified (use --param ${p.name}=VALUE${hint})`);
    }
  });
  if (problems.length > 0) return result();

  // The last declaration of a name wins, as in the processor's map. The note says where the value
  // came from, never the value: a repeated name is often a password, and the note goes to logs.
  const values = new Map(params.map((p) => [p.name, p.value]));
  for (const [paramName, at] of declarations) {
    if (at.length < 2) continue;
    const last = at[at.length - 1] ?? 0;
    const value = values.get(paramName) ?? '';
    const source = value === '' ? 'empty' : generated.has(last) ? 'generated from its expression, not shown' : 'its value field, not shown';
    const user = userValues.get(paramName);
    const lost = user !== undefined && user !== value ? `; the value --param ${paramName} gave set only the first declaration and is not substituted` : '';
    notes.push(`${formatOrigin(within(`parameters[${last}]`))}: Template "${name}": parameter ${paramName} is declared ${at.length} times `
      + `(${at.map((i) => `parameters[${i}]`).join(', ')}); as oc process did, \${${paramName}} takes the value of the last declaration (${source})${lost}`);
  }
  const message = typeof template['message'] === 'string' ? substituteString(template['message'], values).value : '';
  const labels: Record<string, unknown> = {};
  if (template['labels'] !== undefined && !isObject(template['labels'])) problem('labels', 'labels must be a map of strings');
  for (const [k, v] of Object.entries(isObject(template['labels']) ? template['labels'] : {})) {
    labels[substituteString(k, values).value] = typeof v === 'string' ? substituteString(v, values).value : v;
  }

  const rawObjects = template['objects'];
  if (rawObjects !== undefined && !Array.isArray(rawObjects)) {
    problem('objects', 'objects must be a list');
    return result();
  }
  const objects: ProcessedObject[] = [];
  (rawObjects ?? []).forEach((raw: unknown, i: number) => {
    const path = `objects[${i}]`;
    if (!isObject(raw)) {
      problem(path, 'object is not a map');
      return;
    }
    const copy = structuredClone(raw) as KubeObject;
    const keepNamespace = stripNamespace(copy);
    const notJson = new Map<string, string[]>();
    const obj = substitute(copy, values, notJson) as KubeObject;
    const changes: string[] = [];
    if (Object.keys(labels).length > 0) {
      const m = isObject(obj.metadata) ? obj.metadata : (obj.metadata = {}) as Record<string, unknown>;
      const own = readableLabels(m['labels']);
      if (own === undefined) changes.push(replacedLabelsLine(m['labels']));
      m['labels'] = { ...own, ...labels };
    }
    objects.push({ object: obj, origin: within(path), keepNamespace, template: name, ...(changes.length > 0 ? { changes } : {}), ...(notJson.size > 0 ? { notJsonValues: notJson } : {}) });
  });
  return result(objects, message, values);
}

/**
 * The labels the processor reads from an object before adding the Template's: its own, or
 * undefined when they are not a map of strings. OpenShift's processor reads them as such a map
 * (Unstructured.GetLabels: a null value reads as ""); anything else reads as no labels at all, so
 * the Template's labels replace every label of the object (the label that is not a string, and
 * with it the rest) instead of being added, and the object is created without them.
 */
function readableLabels(labels: unknown): Record<string, unknown> | undefined {
  if (labels === undefined || labels === null) return {};
  if (!isObject(labels)) return undefined;
  return Object.values(labels).every((v) => typeof v === 'string' || v === null) ? labels : undefined;
}

/** The report line of an object whose labels the Template's replaced (readableLabels). */
function replacedLabelsLine(labels: unknown): string {
  if (!isObject(labels)) {
    return `metadata.labels: ${JSON.stringify(labels)} is not a map: as oc process did, the Template's labels replaced it`;
  }
  const odd = Object.entries(labels).filter(([, v]) => typeof v !== 'string' && v !== null).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `metadata.labels: ${odd.join(', ')} ${odd.length === 1 ? 'is not a string' : 'are not strings'}: as oc process did, `
    + `the Template's labels replaced all the object's own labels, so it is created without ${Object.keys(labels).sort().join(', ')}`;
}

function decodeParameters(raw: unknown, problem: (path: string, message: string) => void): TemplateParameter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problem('parameters', 'parameters must be a list');
    return [];
  }
  const out: TemplateParameter[] = [];
  raw.forEach((p: unknown, i: number) => {
    const path = `parameters[${i}]`;
    if (!isObject(p) || typeof p['name'] !== 'string') {
      problem(path, 'a parameter needs a name');
      return;
    }
    const name = p['name'];
    if (!parameterNameExp.test(name)) problem(path, `invalid parameter name "${name}": use letters, digits and _`);
    const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    out.push({ name, value: str(p['value']), generate: str(p['generate']), from: str(p['from']), required: p['required'] === true });
  });
  return out;
}

/** Removes a hard-coded namespace; returns true when the namespace references a parameter and is kept. */
function stripNamespace(obj: KubeObject): boolean {
  if (!isObject(obj.metadata) || !('namespace' in obj.metadata)) return false;
  const ns = obj.metadata['namespace'];
  if (typeof ns === 'string' && new RegExp(stringParameterExp.source).test(ns)) return true;
  delete obj.metadata['namespace'];
  return false;
}

/** `EvaluateParameterSubstitution`: `asString` false means the value is to be decoded as JSON. */
export function substituteString(input: string, values: ReadonlyMap<string, string>): { value: string; asString: boolean } {
  const whole = nonStringParameterExp.exec(input);
  if (whole) {
    const v = values.get(whole[1] ?? '');
    if (v !== undefined) return { value: v, asString: false };
  }
  // As the processor does it: the references of the input, each replaced in turn at its first
  // occurrence in the result so far, so a value that holds a reference can take a later one's place.
  let out = input;
  for (const [ref, name] of input.matchAll(stringParameterExp)) {
    const value = values.get(name ?? '');
    if (value !== undefined) out = out.replace(ref, () => value);
  }
  return { value: out, asString: true };
}

/** Substitutes `values` in `v`; `${{NAME}}` values that are not JSON are recorded in `notJson` (value → names). */
function substitute(v: unknown, values: ReadonlyMap<string, string>, notJson: Map<string, string[]>): unknown {
  if (typeof v === 'string') {
    const { value, asString } = substituteString(v, values);
    if (asString) return value;
    try {
      return JSON.parse(value);
    } catch {
      // Not JSON (e.g. an unquoted word): oc keeps it as a string.
      const name = nonStringParameterExp.exec(v)?.[1] ?? '';
      const names = notJson.get(value) ?? [];
      if (!names.includes(name)) notJson.set(value, [...names, name]);
      return value;
    }
  }
  if (Array.isArray(v)) return v.map((x) => substitute(x, values, notJson));
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[substituteString(k, values).value] = substitute(x, values, notJson);
    return out;
  }
  return v;
}
