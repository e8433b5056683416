/**
 * Authorization by SubjectAccessReview, as a delegated API server does it: every resource request
 * is reviewed by the cluster's authorizer (RBAC), so `deploymentconfigs/instantiate`, `/rollback`,
 * `/log` and the verbs behave as on OpenShift. Decisions are cached briefly (kube-apiserver's
 * delegated authorizer caches allowed and denied answers for 10 s by default).
 */
import type { UserInfo } from './authn.js';

export interface ResourceAttributes {
  readonly namespace?: string;
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly name?: string;
}

export interface NonResourceAttributes {
  readonly path: string;
  readonly verb: string;
}

export interface Decision {
  readonly allowed: boolean;
  readonly reason?: string;
}

/** Posts a SubjectAccessReview and returns its status. */
export type ReviewFn = (spec: object) => Promise<Decision>;

export class Authorizer {
  private readonly cache = new Map<string, { decision: Decision; expires: number }>();

  constructor(
    private readonly review: ReviewFn,
    private readonly ttlMs = 10_000,
    // Elapsed time: a wall clock stepped back must not extend a cached allow.
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  async authorize(user: UserInfo, attrs: { resource?: ResourceAttributes; nonResource?: NonResourceAttributes }): Promise<Decision> {
    const spec = {
      user: user.name,
      groups: [...user.groups],
      ...(user.uid ? { uid: user.uid } : {}),
      ...(Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
      ...(attrs.resource ? { resourceAttributes: attrs.resource } : {}),
      ...(attrs.nonResource ? { nonResourceAttributes: attrs.nonResource } : {}),
    };
    // system:masters is allowed everything without a review (the delegated authorizer's
    // always-allow group), which keeps kube-apiserver's own discovery and OpenAPI probes cheap.
    if (user.groups.includes('system:masters')) return { allowed: true };
    const key = JSON.stringify(spec);
    const hit = this.cache.get(key);
    const t = this.now();
    if (hit && hit.expires > t) return hit.decision;
    const decision = await this.review(spec);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(key, { decision, expires: t + this.ttlMs });
    return decision;
  }
}
