/**
 * Request bodies read as kube-apiserver (and so openshift-apiserver) reads them under its field
 * validation directive (the `fieldValidation` query parameter, `Warn` when absent): a key written
 * twice in one JSON object or YAML mapping keeps its later value and is answered with a `Warning`
 * header (`Warn`), refuses the request (`Strict`, kubectl's default; kubectl itself never sends
 * one, as it re-encodes what it read) or passes silently (`Ignore`). Unknown fields are judged by
 * the storage, which the front forwards the directive to; its warnings are relayed (server.ts).
 * The wording of each message is kube-apiserver's 1.36 (measured on the plane).
 */
import type { ServerResponse } from 'node:http';
import yaml from 'js-yaml';
import { loadYamlBounded, parseJsonBounded } from '../util/bounded-decode.js';
import { isDuplicateKey, jsonDuplicateKeys, loadYamlKeepingLaterDuplicates, type DuplicateKey } from '../util/duplicate-keys.js';
import { yaml11Schema } from '../util/yaml11.js';
import { Kind } from '../apis/constants.js';
import { badRequest, invalidMessage, type ApiStatusError } from './status.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** The request's directive; a value kube-apiserver does not know is refused by the storage, to which it is forwarded. */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  return v === 'Strict' || v === 'Ignore' ? v : 'Warn';
}

/**
 * Each located duplicate costs the front one more parse of a YAML body (up to 3 MiB): a body with
 * more is refused rather than let one request hold the event loop for seconds.
 */
export const MaxLocatedDuplicates = 20;

/** What a body is to the API: the object itself (create, update), a patch of it, or an apply configuration. */
export type BodyRole = 'object' | 'patch' | 'apply';

export interface DecodedBody {
  readonly value: unknown;
  readonly duplicates: DuplicateKey[];
  readonly format: 'json' | 'yaml';
}

/**
 * Parses a body, keeping the later value of a key written twice; throws what the parser threw.
 * `judged` false (a JSON patch, whose operations are not fields of the object): JSON duplicates are
 * not looked for, as kube-apiserver does not judge them.
 */
export function decodeBody(text: string, format: 'json' | 'yaml', judged = true): DecodedBody {
  if (format === 'json') {
    const value = parseJsonBounded(text);
    const duplicates = judged && value !== null && typeof value === 'object' ? jsonDuplicateKeys(text, text.search(/\S/), text.length, 1, 0, MaxLocatedDuplicates) : [];
    return { value, duplicates, format };
  }
  // Read as kube-apiserver reads YAML (YAML 1.1: `0400` is octal, timestamps stay strings).
  try {
    return { value: loadYamlBounded(text, { schema: yaml11Schema }), duplicates: [], format };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  let loaded: { docs: unknown[]; duplicateKeys: DuplicateKey[] };
  try {
    loaded = loadYamlKeepingLaterDuplicates(text, { schema: yaml11Schema }, MaxLocatedDuplicates);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const mark = err.mark as { line: number } | undefined;
    throw new SyntaxError(`more than ${MaxLocatedDuplicates} keys written twice in one mapping${mark ? ` (the last at line ${mark.line + 1})` : ''}`);
  }
  const { docs, duplicateKeys } = loaded;
  if (docs.length !== 1) throw new yaml.YAMLException('expected a single document in the stream, but found more');
  return { value: docs[0], duplicates: duplicateKeys, format };
}

/** kube-apiserver's text for one duplicate: sigs.k8s.io/json's for JSON, go-yaml's for YAML. */
function duplicateText(d: DuplicateKey): string {
  return d.format === 'json' ? `duplicate field ${JSON.stringify(d.fieldPath ?? d.path)}` : `line ${d.line}: key ${JSON.stringify(d.key)} already set in map`;
}

/** The refusal kube-apiserver answers under `Strict`. */
function strictError(body: DecodedBody, role: BodyRole, name: string, kind: string): ApiStatusError {
  // kube-apiserver names a path once, however many times its key was written again.
  const texts = [...new Set(body.duplicates.map(duplicateText))];
  const detail = body.format === 'json' ? texts.join(', ') : `yaml: unmarshal errors:\n${texts.map((t) => `  ${t}`).join('\n')}`;
  if (role === 'apply') return badRequest(`error strict decoding YAML: error converting YAML to JSON: ${detail}`);
  if (role === 'patch') return invalidPatchResult(name, `strict decoding error: ${detail}`);
  return badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: strict decoding error: ${detail}`);
}

/**
 * Applies the directive to a decoded body's duplicate keys: throws under `Strict`, adds one
 * `Warning` header per key under `Warn`. `kind` is what the body is (a DeploymentConfig, or a
 * subresource's DeploymentRequest or DeploymentConfigRollback).
 */
export function judgeDuplicates(body: DecodedBody, role: BodyRole, directive: FieldValidation, res: ServerResponse, name = '', kind: string = Kind): void {
  if (body.duplicates.length === 0 || directive === 'Ignore') return;
  if (directive === 'Strict') throw strictError(body, role, name, kind);
  for (const d of body.duplicates) addWarning(res, warningHeader(duplicateText(d)));
}

/** A `Warning` header value as kube-apiserver writes it (RFC 7234 code 299, no agent). */
export const warningHeader = (text: string): string => `299 - ${JSON.stringify(text)}`;

/** Adds a `Warning` header once (kube-apiserver drops repeats), unless the answer has begun. */
export function addWarning(res: ServerResponse, value: string): void {
  if (res.headersSent) return;
  const current = res.getHeader('warning');
  const values = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
  if (!values.includes(value)) res.setHeader('warning', [...values, value]);
}

/** kube-apiserver's answer to a patch whose result it cannot decode: Invalid, on the field `patch`. */
export const invalidPatchResult = (name: string, why: string): ApiStatusError =>
  invalidMessage(Kind, name, `${Kind} "${name}" is invalid: patch: Invalid value: the patched object: ${why}`, 'patch');
