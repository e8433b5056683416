/**
 * `--cross-namespace-images=admission`: the controllers' half of the cross-namespace image check
 * (docs/image-triggers.md "Cross-namespace references"; the decision itself is pure, in
 * src/image/cross-namespace.ts).
 *
 * Reads the ValidatingAdmissionPolicy and its binding (same name) at start and every
 * `intervalMs`; any failure to read them counts as "not in force", so references to another
 * namespace are refused rather than followed unchecked. Listeners hear about every change of the
 * state, so the controllers re-sync what it affects at once instead of at the next resync.
 */
import type { V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isNotFound } from '../controller/errors.js';
import {
  admissionRefusal, policyState, type CrossNamespaceGate, type PolicyState, type ReferringObject,
} from '../image/cross-namespace.js';
import { errorMessage } from '../util/error-message.js';
import type { RestClient } from './rest.js';

/** The two reads the gate makes; each rejects with an ApiError (404 when the object is not there). */
export interface AdmissionPolicyReads {
  policy(name: string): Promise<V1ValidatingAdmissionPolicy>;
  binding(name: string): Promise<V1ValidatingAdmissionPolicyBinding>;
}

/** The reads on the small JSON client (every interval: cheaper than client-node's). */
export function restAdmissionPolicyReads(rest: RestClient): AdmissionPolicyReads {
  const group = '/apis/admissionregistration.k8s.io/v1';
  return {
    policy: (name) => rest.request<V1ValidatingAdmissionPolicy>('GET', `${group}/validatingadmissionpolicies/${encodeURIComponent(name)}`),
    binding: (name) => rest.request<V1ValidatingAdmissionPolicyBinding>('GET', `${group}/validatingadmissionpolicybindings/${encodeURIComponent(name)}`),
  };
}

/** How long a state read successfully is kept while reads fail (API server restarts, throttling). */
const StaleStateMs = 60_000;

const stateKey = (s: PolicyState): string => (s.inForce ? `in force since ${s.since.toISOString()}` : s.reason);

export class AdmissionPolicyGate implements CrossNamespaceGate {
  private state: PolicyState = { inForce: false, reason: 'the admission policy has not been read yet' };
  private timer?: NodeJS.Timeout;
  private readonly listeners: Array<() => void> = [];
  /** Whether the state was read once: the first read is no change to announce. */
  private read0 = false;
  private lastReadMs = 0;

  constructor(private readonly reads: AdmissionPolicyReads, private readonly policyName: string, private readonly log: Logger) {}

  /** Reads the policy once now (so the first syncs decide on it), then every `intervalMs`. */
  async start(intervalMs = 10_000): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** `listener` runs after every change of the state (not on the first read). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async refresh(): Promise<void> {
    const previous = this.state;
    const first = !this.read0;
    try {
      this.state = await this.read();
      this.lastReadMs = performance.now();
    } catch (err) {
      // Unknown is refused (following a reference nobody checked is the failure to avoid), but
      // one failed read does not flip every status tag: the last state holds for a short while.
      if (!previous.inForce || performance.now() - this.lastReadMs > StaleStateMs) {
        this.state = { inForce: false, reason: `the admission policy "${this.policyName}" could not be read: ${errorMessage(err)}` };
      } else {
        this.log.warn({ err, policy: this.policyName }, 'Could not read the cross-namespace image policy; keeping the last state for now');
      }
    }
    this.read0 = true;
    if (stateKey(previous) === stateKey(this.state)) return;
    if (this.state.inForce) this.log.info({ policy: this.policyName, since: this.state.since }, 'Cross-namespace image references: the admission policy is in force');
    else this.log.warn({ policy: this.policyName, reason: this.state.reason }, 'Cross-namespace image references are refused');
    if (first) return;
    for (const l of this.listeners) {
      try { l(); } catch (err) { this.log.error({ err }, 'cross-namespace gate listener failed'); }
    }
  }

  refusal(object: ReferringObject, sourceNamespace: string): string | undefined {
    return admissionRefusal(this.state, this.policyName, object, sourceNamespace);
  }

  private async read(): Promise<PolicyState> {
    const name = this.policyName;
    const orUndefined = async <T>(p: Promise<T>): Promise<T | undefined> => {
      try {
        return await p;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    };
    const policy = await orUndefined(this.reads.policy(name));
    const binding = !policy ? undefined : await orUndefined(this.reads.binding(name));
    return policyState(name, policy, binding);
  }
}
