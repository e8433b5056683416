/**
 * The front's access to the storage group (docs/apiserver.md): REST calls to kube-apiserver for
 * `deploymentconfigs.<storage group>` and the core resources the subresources read, made with the
 * front's credentials IMPERSONATING the requesting user (user, uid, groups, extras), plus the
 * group `system:dcctl:apiserver-proxied` that alone is granted the storage. Audit logs therefore
 * show the user (with the front as impersonator).
 */
import type { IncomingMessage } from 'node:http';
import { Plural, Version } from '../apis/constants.js';
import type { RawTransport } from '../kube/raw.js';
import type { UserInfo } from './authn.js';
import { fromStorageStatus, internal, rewordStorageGroup } from './status.js';

/** The group every impersonated storage request carries; bound to the storage ClusterRole. */
export const ProxiedGroup = 'system:dcctl:apiserver-proxied';

export interface CallOptions {
  readonly query?: URLSearchParams | Record<string, string | undefined>;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  /** Raw body and its content type (patches are forwarded byte for byte). */
  readonly rawBody?: { contentType: string; data: string | Buffer };
  readonly signal?: AbortSignal;
  /** The answer's `Warning` headers are not relayed (a call made for the front's own checks). */
  readonly quiet?: boolean;
}

export function impersonationHeaders(user: UserInfo | undefined): Record<string, string | string[]> {
  if (!user) return {};
  const h: Record<string, string | string[]> = {
    'impersonate-user': user.name,
    'impersonate-group': [...new Set([...user.groups.filter((g) => g !== 'system:authenticated'), ProxiedGroup])],
  };
  if (user.uid) h['impersonate-uid'] = user.uid;
  for (const [k, v] of Object.entries(user.extra)) h[`impersonate-extra-${encodeURIComponent(k)}`] = [...v];
  return h;
}

function queryString(q: CallOptions['query']): string {
  if (!q) return '';
  const params = q instanceof URLSearchParams ? new URLSearchParams(q) : new URLSearchParams();
  if (!(q instanceof URLSearchParams)) for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : '';
}

export async function readBody(res: IncomingMessage, limit = 64 << 20): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of res) {
    const b = c as Buffer;
    size += b.length;
    if (size > limit) throw internal('response too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export interface JsonResponse<T> {
  readonly status: number;
  readonly body: T;
}

/** Storage access on behalf of one user. */
export class UserStorage {
  constructor(
    private readonly transport: RawTransport,
    readonly storageGroup: string,
    readonly user: UserInfo | undefined,
    /** Called with each `Warning` header the storage answers (unknown fields, deprecations), to relay to the client. */
    private readonly onWarning?: (value: string) => void,
  ) {}

  dcPath(namespace: string | undefined, name?: string, subresource?: string): string {
    const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    const n = name ? `/${encodeURIComponent(name)}` : '';
    const s = subresource ? `/${subresource}` : '';
    return `/apis/${this.storageGroup}/${Version}${ns}/${Plural}${n}${s}`;
  }

  /** A raw call; the response is unread. */
  async raw(method: string, path: string, opts: CallOptions = {}): Promise<IncomingMessage> {
    const headers: Record<string, string | string[]> = { accept: 'application/json', ...impersonationHeaders(this.user), ...(opts.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (opts.rawBody) {
      body = opts.rawBody.data;
      headers['content-type'] = opts.rawBody.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await this.transport.request({ method, path: `${path}${queryString(opts.query)}`, headers, ...(body !== undefined ? { body } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
    if (this.onWarning && !opts.quiet && res.rawHeaders) {
      // Each header on its own: `headers.warning` joins them with ", ", which their texts contain.
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        if (res.rawHeaders[i]!.toLowerCase() === 'warning') this.onWarning(rewordStorageGroup(res.rawHeaders[i + 1]!, this.storageGroup));
      }
    }
    return res;
  }

  /** A JSON call; a non-2xx answer throws the storage's Status reworded for the public group. */
  async json<T>(method: string, path: string, opts: CallOptions = {}): Promise<JsonResponse<T>> {
    const res = await this.raw(method, path, opts);
    const buf = await readBody(res);
    let parsed: unknown;
    try {
      parsed = buf.length ? JSON.parse(buf.toString('utf8')) : undefined;
    } catch {
      parsed = { message: buf.toString('utf8').slice(0, 500) };
    }
    const status = res.statusCode ?? 500;
    if (status < 200 || status > 299) throw fromStorageStatus(parsed, status, this.storageGroup);
    return { status, body: parsed as T };
  }
}
