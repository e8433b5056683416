/**
 * What a request asks for, decided from method and path as kube-apiserver's RequestInfoFactory
 * does (verbs get/list/watch/create/update/patch/delete/deletecollection), restricted to the
 * paths of this group. Pure.
 */
import { Group, Plural, Version } from '../apis/constants.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const Subresources = ['status', 'scale', 'instantiate', 'rollback', 'log'] as const;
export type Subresource = (typeof Subresources)[number];

export type RequestInfo =
  | { kind: 'nonResource'; path: string; verb: string }
  | {
    kind: 'resource';
    verb: Verb;
    /** Undefined for the all-namespaces list/watch. */
    namespace?: string;
    name?: string;
    subresource?: Subresource;
    query: URLSearchParams;
  }
  | { kind: 'notFound'; path: string };

const groupPrefix = `/apis/${Group}/${Version}`;

function isTrue(v: string | null): boolean {
  return v !== null && v !== 'false' && v !== '0';
}

/** Parses `url` (path + query) for `method`. */
export function requestInfo(method: string, url: string): RequestInfo {
  const parsed = new URL(url, 'https://front.invalid');
  const path = parsed.pathname.replace(/\/+$/, '') || '/';
  const query = parsed.searchParams;
  const m = method.toUpperCase();
  if (!path.startsWith(`${groupPrefix}/`)) return { kind: 'nonResource', path, verb: m.toLowerCase() };

  let parts = path.slice(groupPrefix.length + 1).split('/').map(decodeURIComponent);
  let watchPath = false;
  if (parts[0] === 'watch') {
    watchPath = true;
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    namespace = parts[1];
    parts = parts.slice(2);
  }
  // oc's log client names the resource "deploymentConfigs"; routing is case-insensitive for it.
  if (parts[0]?.toLowerCase() !== Plural || parts.length > 3) return { kind: 'notFound', path };
  const name = parts[1];
  const sub = parts[2];
  if (sub !== undefined && !(Subresources as readonly string[]).includes(sub)) return { kind: 'notFound', path };
  const subresource = sub as Subresource | undefined;
  if (name === undefined && namespace === undefined && m !== 'GET') return { kind: 'notFound', path };
  if (name === '') return { kind: 'notFound', path };

  let verb: Verb;
  switch (m) {
    case 'GET':
    case 'HEAD':
      if (watchPath || isTrue(query.get('watch'))) verb = 'watch';
      else verb = name === undefined ? 'list' : 'get';
      break;
    case 'POST': verb = 'create'; break;
    case 'PUT': verb = 'update'; break;
    case 'PATCH': verb = 'patch'; break;
    case 'DELETE': verb = name === undefined ? 'deletecollection' : 'delete'; break;
    default: return { kind: 'notFound', path };
  }
  return { kind: 'resource', verb, namespace, name, subresource, query };
}

/** Which (verb, subresource) pairs the API serves (discovery's verbs). */
export function isServed(verb: Verb, subresource: Subresource | undefined, hasName: boolean): boolean {
  switch (subresource) {
    case undefined:
      return hasName ? ['get', 'watch', 'update', 'patch', 'delete'].includes(verb) : ['list', 'watch', 'create', 'deletecollection'].includes(verb);
    case 'status':
    case 'scale':
      return hasName && ['get', 'update', 'patch'].includes(verb);
    case 'instantiate':
    case 'rollback':
      return hasName && verb === 'create';
    case 'log':
      return hasName && verb === 'get';
  }
}
