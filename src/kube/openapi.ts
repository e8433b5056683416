/**
 * The cluster's OpenAPI v3 document as a SchemaSource for `dcctl import`: which fields a kind
 * has, so fields the server does not know can be removed before kubectl's strict validation
 * refuses them. `GET /openapi/v3` lists one document per group/version; the kind's schema is
 * the component whose `x-kubernetes-group-version-kind` names it.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { isScalar, scalarOf, SchemaUnavailableError, type SchemaNode, type SchemaSource } from '../import/prune.js';

interface OpenApiSchema {
  type?: string;
  format?: string;
  $ref?: string;
  allOf?: OpenApiSchema[];
  /** A value of either schema: how OpenAPI v3 writes int-or-string and Quantity (no `type`). */
  oneOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}
export interface OpenApiDocument { components?: { schemas?: Record<string, OpenApiSchema> } }

/** Converts the component `name` of `doc` (and what it references) to a skeleton; cycles are shared nodes. */
export function skeletonOf(doc: OpenApiDocument, name: string): SchemaNode {
  const schemas = doc.components?.schemas ?? {};
  const done = new Map<string, SchemaNode>();
  const convert = (n: OpenApiSchema | undefined): SchemaNode => {
    if (!n) return { x: 1 };
    const ref = n.$ref ?? (n.allOf?.length === 1 ? n.allOf[0]?.$ref : undefined);
    if (ref) return byName(ref.split('/').pop() ?? '');
    // An open subtree accepts any field; the properties it declares keep their types.
    if (n['x-kubernetes-preserve-unknown-fields'] || n['x-kubernetes-embedded-resource']) {
      return n.properties ? { x: 1, p: Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, convert(v)])) } : { x: 1 };
    }
    const out: { p?: Record<string, SchemaNode>; i?: SchemaNode; a?: SchemaNode } = {};
    if (n.properties) out.p = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, convert(v)]));
    if (n.items) out.i = convert(n.items);
    if (typeof n.additionalProperties === 'object') out.a = convert(n.additionalProperties);
    // An object schema without properties accepts any field (a free-form object).
    return Object.keys(out).length > 0 ? out : scalarOf(n.type, n.format);
  };
  const byName = (ref: string): SchemaNode => {
    const known = done.get(ref);
    if (known !== undefined) return known;
    const target = schemas[ref];
    if (!target) return { x: 1 };
    // Register a mutable node first so recursive references (JSONSchemaProps) end.
    const node: { p?: Record<string, SchemaNode>; i?: SchemaNode; a?: SchemaNode; x?: 1 } = {};
    done.set(ref, node);
    const converted = convert(target);
    if (isScalar(converted)) { done.set(ref, converted); return converted; }
    Object.assign(node, converted);
    return node;
  };
  return byName(name);
}

/** Finds the component of `doc` for group/version/kind. */
export function componentFor(doc: OpenApiDocument, group: string, version: string, kind: string): string | undefined {
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
    if (s['x-kubernetes-group-version-kind']?.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
  }
  return undefined;
}

/** A SchemaSource reading the OpenAPI v3 documents of the cluster of `kc` (each fetched once). */
export function makeOpenApiSchemaSource(kc: KubeConfig): SchemaSource {
  const server = kc.getCurrentCluster()?.server;
  let index: Promise<Record<string, { serverRelativeURL: string }>> | undefined;
  const documents = new Map<string, Promise<OpenApiDocument>>();
  const get = async <T>(path: string): Promise<T> => {
    if (!server) throw new SchemaUnavailableError('the kubeconfig names no cluster');
    const url = new URL(path, server);
    const opts: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
    await kc.applyToHTTPSOptions(opts);
    return new Promise<T>((resolve, reject) => {
      const req = (url.protocol === 'http:' ? http : https).request(url, { ...opts, timeout: 15_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) { reject(new SchemaUnavailableError(`GET ${url.pathname}: HTTP ${res.statusCode}`)); return; }
          try { resolve(JSON.parse(body) as T); } catch (err) { reject(new SchemaUnavailableError(`GET ${url.pathname}: ${(err as Error).message}`)); }
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (err) => reject(new SchemaUnavailableError(`cannot read the cluster's OpenAPI document: ${err.message}`)));
      req.end();
    });
  };
  return {
    async schemaFor(apiVersion, kind) {
      index ??= get<{ paths: Record<string, { serverRelativeURL: string }> }>('/openapi/v3').then((r) => r.paths);
      const paths = await index;
      const i = apiVersion.indexOf('/');
      const [group, version] = i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
      const entry = paths[group === '' ? `api/${version}` : `apis/${group}/${version}`];
      if (!entry) return undefined;
      let doc = documents.get(entry.serverRelativeURL);
      if (!doc) { doc = get<OpenApiDocument>(entry.serverRelativeURL); documents.set(entry.serverRelativeURL, doc); }
      const name = componentFor(await doc, group, version, kind);
      return name ? skeletonOf(await doc, name) : undefined;
    },
  };
}
