/**
 * Authentication as a delegated (aggregated) API server: the cluster publishes its front-proxy
 * and client CA bundles and the request-header names in the config map
 * kube-system/extension-apiserver-authentication. A request is authenticated when
 *  - its client certificate is issued by the request-header CA, has a CN in the allowed names
 *    (any, when the list is empty), and a username header is present → that user, groups and
 *    extras (the front proxy, i.e. kube-apiserver's aggregator, vouches for them); or
 *  - its client certificate is issued by the client CA → CN as user, O as groups.
 * Anything else is anonymous and answered 401 by the server. Pure except for X.509 parsing.
 */
import { X509Certificate } from 'node:crypto';

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface AuthenticationConfig {
  readonly clientCAs: readonly X509Certificate[];
  readonly requestHeaderCAs: readonly X509Certificate[];
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

/** Outcome: a user; `proxyOnly` = a valid front-proxy certificate without a user (health probes). */
export type AuthResult = { kind: 'user'; user: UserInfo } | { kind: 'proxyOnly' } | { kind: 'anonymous'; reason: string };

/** Splits a PEM bundle into certificates (invalid blocks are skipped). */
export function parsePemBundle(pem: string | undefined): X509Certificate[] {
  if (!pem) return [];
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const out: X509Certificate[] = [];
  for (const b of blocks) {
    try {
      out.push(new X509Certificate(b));
    } catch {
      // an unparsable block cannot authenticate anyone
    }
  }
  return out;
}

const jsonList = (v: string | undefined): string[] => {
  if (!v) return [];
  try {
    const parsed = JSON.parse(v) as unknown;
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** Reads the config map's data into an AuthenticationConfig. */
export function authenticationConfigFrom(data: Record<string, string | undefined>): AuthenticationConfig {
  return {
    clientCAs: parsePemBundle(data['client-ca-file']),
    requestHeaderCAs: parsePemBundle(data['requestheader-client-ca-file']),
    allowedNames: jsonList(data['requestheader-allowed-names']),
    usernameHeaders: jsonList(data['requestheader-username-headers']).map((h) => h.toLowerCase()),
    uidHeaders: jsonList(data['requestheader-uid-headers']).map((h) => h.toLowerCase()),
    groupHeaders: jsonList(data['requestheader-group-headers']).map((h) => h.toLowerCase()),
    extraHeaderPrefixes: jsonList(data['requestheader-extra-headers-prefix']).map((h) => h.toLowerCase()),
  };
}

function issuedBy(cert: X509Certificate, cas: readonly X509Certificate[], now: Date): boolean {
  if (new Date(cert.validFrom) > now || new Date(cert.validTo) < now) return false;
  return cas.some((ca) => {
    try {
      return cert.checkIssued(ca) && cert.verify(ca.publicKey);
    } catch {
      return false;
    }
  });
}

/** `CN=x` and `O=a`, `O=b` of an X.509 subject as Node prints it (one attribute per line). */
function subjectField(cert: X509Certificate, key: 'CN' | 'O'): string[] {
  return cert.subject.split('\n').filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
}

type Headers = Record<string, string | string[] | undefined>;
const values = (h: Headers, name: string): string[] => {
  const v = h[name];
  if (v === undefined) return [];
  // Node's headersDistinct keeps repeated headers apart (the aggregator sends one per value).
  return (Array.isArray(v) ? v : [v]).filter((x) => x !== '');
};
const first = (h: Headers, names: readonly string[]): string | undefined => {
  for (const n of names) {
    const v = h[n];
    const s = Array.isArray(v) ? v[0] : v;
    if (s) return s;
  }
  return undefined;
};

/** Authenticates one request from its peer certificate (DER) and its (lower-cased) headers. */
export function authenticate(peerCert: Buffer | undefined, headers: Headers, config: AuthenticationConfig, now = new Date()): AuthResult {
  if (!peerCert || peerCert.length === 0) return { kind: 'anonymous', reason: 'no client certificate' };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(peerCert);
  } catch {
    return { kind: 'anonymous', reason: 'unparsable client certificate' };
  }
  if (issuedBy(cert, config.requestHeaderCAs, now)) {
    const cn = subjectField(cert, 'CN')[0] ?? '';
    if (config.allowedNames.length > 0 && !config.allowedNames.includes(cn)) {
      return { kind: 'anonymous', reason: `front-proxy certificate CN "${cn}" is not in requestheader-allowed-names` };
    }
    const name = first(headers, config.usernameHeaders);
    if (!name) return { kind: 'proxyOnly' };
    const groups = config.groupHeaders.flatMap((g) => values(headers, g));
    const extra: Record<string, string[]> = {};
    for (const [header, v] of Object.entries(headers)) {
      const prefix = config.extraHeaderPrefixes.find((p) => header.startsWith(p));
      if (!prefix || v === undefined) continue;
      const key = decodeURIComponent(header.slice(prefix.length)).toLowerCase();
      (extra[key] ??= []).push(...values(headers, header));
    }
    const uid = first(headers, config.uidHeaders);
    // Like kube-apiserver's authenticated-group adder: every authenticated user is in
    // system:authenticated (RBAC's system:discovery, e.g. for /openapi/v2, is bound to it).
    if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
    return { kind: 'user', user: { name, groups, extra, ...(uid ? { uid } : {}) } };
  }
  if (issuedBy(cert, config.clientCAs, now)) {
    const name = subjectField(cert, 'CN')[0];
    if (!name) return { kind: 'anonymous', reason: 'client certificate without CN' };
    return { kind: 'user', user: { name, groups: [...subjectField(cert, 'O'), 'system:authenticated'], extra: {} } };
  }
  return { kind: 'anonymous', reason: 'client certificate not issued by a trusted CA' };
}
