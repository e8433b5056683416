/**
 * Kubernetes `Status` errors as the front answers them. Typed: handlers throw ApiStatusError and
 * the server writes its body; nothing matches on message text.
 */
import { Group, Plural } from '../apis/constants.js';

export interface StatusCause {
  /** kube-apiserver's `type` (e.g. NamespaceTerminating); `reason` is the front's own name for it. */
  readonly type?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

export class ApiStatusError extends Error {
  override readonly name = 'ApiStatusError';
  constructor(readonly body: StatusBody) {
    super(body.message);
  }

  get code(): number {
    return this.body.code;
  }
}

function status(code: number, reason: string, message: string, details?: StatusBody['details']): ApiStatusError {
  return new ApiStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

export const unauthorized = (): ApiStatusError => status(401, 'Unauthorized', 'Unauthorized');

export function forbidden(user: string, verb: string, resource: string, subresource: string | undefined, namespace: string | undefined, name: string | undefined, reason?: string): ApiStatusError {
  const what = subresource ? `${resource}/${subresource}` : resource;
  const named = name ? ` "${name}"` : '';
  const scope = namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope';
  const tail = reason ? `: ${reason}` : '';
  return status(403, 'Forbidden', `${what}.${Group}${named} is forbidden: User "${user}" cannot ${verb} resource "${what}" in API group "${Group}"${scope}${tail}`,
    { ...(name ? { name } : {}), group: Group, kind: resource });
}

export const forbiddenPath = (user: string, verb: string, path: string): ApiStatusError =>
  status(403, 'Forbidden', `forbidden: User "${user}" cannot ${verb} path "${path}"`);

export const notFound = (name: string, resource: string = Plural): ApiStatusError =>
  status(404, 'NotFound', `${resource}.${Group} "${name}" not found`, { name, group: Group, kind: resource });

export const notFoundPath = (): ApiStatusError => status(404, 'NotFound', 'the server could not find the requested resource');

export const methodNotSupported = (verb: string, what: string): ApiStatusError =>
  status(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${what}"`);

export const badRequest = (message: string): ApiStatusError => status(400, 'BadRequest', message);

/** kube-apiserver's NewRequestEntityTooLargeError. */
export const entityTooLarge = (message: string): ApiStatusError => status(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);

export const notAcceptable = (accept: string): ApiStatusError =>
  status(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io, application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io (got ${accept})`);

export const unsupportedMediaType = (type: string): ApiStatusError =>
  status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml (got ${type})`);

export function invalid(kind: string, name: string, causes: StatusCause[]): ApiStatusError {
  const detail = causes.map((c) => `${c.field ? `${c.field}: ` : ''}${c.message ?? ''}`).join(', ');
  return status(422, 'Invalid', `${kind}.${Group} "${name}" is invalid: ${causes.length > 1 ? `[${detail}]` : detail}`, { name, group: Group, kind, causes });
}

/** Invalid with a message already formatted the way kube-apiserver formats it. */
export const invalidMessage = (kind: string, name: string, message: string, field = 'name'): ApiStatusError =>
  status(422, 'Invalid', message, { name, group: Group, kind, causes: [{ reason: 'FieldValueInvalid', message, field }] });

export const conflict = (name: string, message: string): ApiStatusError => status(409, 'Conflict', message, { name, group: Group, kind: Plural });

export const timeout = (message: string): ApiStatusError => status(504, 'Timeout', message, { retryAfterSeconds: 1 });

export const internal = (message: string): ApiStatusError => status(500, 'InternalError', `Internal error occurred: ${message}`);

export const unavailable = (message: string): ApiStatusError => status(503, 'ServiceUnavailable', message);

/**
 * A storage message as the public group's: `deploymentconfigs.<storage group>` and the storage's
 * group/version (`apps.dcctl.io/v1, Kind=...` in a server-side apply's errors) named as ours.
 */
export const rewordStorageGroup = (s: string, storageGroup: string): string =>
  s.split(`.${storageGroup}`).join(`.${Group}`).replace(new RegExp(`(^|[^\\w.-])${storageGroup.replace(/\./g, '\\.')}/`, 'g'), `$1${Group}/`);

/** A Status read from the storage, reworded for the public group. */
export function fromStorageStatus(body: unknown, httpCode: number, storageGroup: string): ApiStatusError {
  const b = (body ?? {}) as Partial<StatusBody>;
  const reword = (s: string | undefined) => (s === undefined ? undefined : rewordStorageGroup(s, storageGroup));
  return new ApiStatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: reword(b.message) ?? `storage answered ${httpCode}`,
    ...(b.reason ? { reason: b.reason } : {}),
    ...(b.details ? { details: { ...b.details, ...(b.details.group === storageGroup ? { group: Group } : {}), ...(b.details.causes ? { causes: b.details.causes.map((c) => ({ ...c, message: reword(c.message) })) } : {}) } } : {}),
    code: b.code ?? httpCode,
  });
}

/** NotFound for a core-group resource (OpenShift's deploylog answers it for a missing RC). */
export const notFoundCore = (resource: string, name: string): ApiStatusError =>
  status(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource });

/** apierrors.NewServerTimeout, as kube-apiserver words it. */
export const serverTimeout = (kind: string, operation: string, retryAfterSeconds: number): ApiStatusError =>
  status(500, 'ServerTimeout', `The ${operation} operation against ${kind} could not be completed at this time, please try again.`, { name: operation, kind, retryAfterSeconds });
