/**
 * Whether the controllers may follow an image reference from an object in namespace A (an
 * ImageStream spec tag, a DC ImageChange trigger) into namespace B: docs/image-triggers.md
 * "Cross-namespace references".
 *
 * The check that matters is made at admission (deploy/image-policy.yaml) on behalf of the user
 * who WRITES the reference: may they `get` `imagestreams/layers` of that stream in B? The
 * controllers cannot see who wrote an object, so in `admission` mode they follow a reference only
 * when they know admission checked it: the policy and its binding are in force (they deny and
 * fail closed) and the object was created after the binding took effect. Both facts come from
 * server-set fields (creationTimestamp, managedFields times) of objects only cluster
 * administrators write: nothing here is read from an object the referencing user can write.
 *
 * Pure: src/kube/cross-namespace-gate.ts reads the policy and binding and keeps the state.
 */

/** The object that holds the reference: its kind, namespace, name and server-set creation time. */
export interface ReferringObject {
  readonly kind?: string;
  readonly metadata: { readonly namespace?: string; readonly name?: string; readonly creationTimestamp?: Date | string };
}

/**
 * Decides on one reference: undefined when `object` may take images from `sourceNamespace`,
 * otherwise the reason, for an ImportSuccess=False condition or a Warning event.
 */
export interface CrossNamespaceGate {
  refusal(object: ReferringObject, sourceNamespace: string): string | undefined;
  /** Runs `listener` whenever decisions may have changed (gates whose decisions never change omit it). */
  onChange?(listener: () => void): void;
}

/**
 * Seconds after the binding's last write before an object counts as checked by it: the API
 * server compiles new policies asynchronously (about a second; more on a loaded server or with
 * several API servers), and creation timestamps have one-second precision.
 */
export const AdmissionPropagationSeconds = 5;

const describe = (object: ReferringObject, sourceNamespace: string): string =>
  `reference from ${object.kind ?? 'object'} "${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}" to images in namespace "${sourceNamespace}"`;

/** Follows every reference (`--cross-namespace-images=allow`, and unit tests of other parts). */
export const allowAllCrossNamespace: CrossNamespaceGate = { refusal: () => undefined };

/** `--cross-namespace-images=deny`: never follows one. */
export const denyAllCrossNamespace: CrossNamespaceGate = {
  refusal: (object, sourceNamespace) => `${describe(object, sourceNamespace)} refused: the controller runs with --cross-namespace-images=deny`,
};

/** What the last look at the policy and its binding found. */
export type PolicyState =
  | { readonly inForce: true; /** Objects created after this were admitted by it. */ readonly since: Date }
  | { readonly inForce: false; readonly reason: string };

/** The parts of a ValidatingAdmissionPolicy the decision reads. */
export interface PolicyFacts {
  readonly spec?: { readonly failurePolicy?: string };
}

/** The parts of a ValidatingAdmissionPolicyBinding the decision reads. */
export interface BindingFacts {
  readonly metadata?: {
    readonly creationTimestamp?: Date | string;
    /** Each manager's last write (server-set); a binding edited after creation counts from then. */
    readonly managedFields?: ReadonlyArray<{ readonly time?: Date | string }>;
  };
  readonly spec?: { readonly policyName?: string; readonly validationActions?: readonly string[]; readonly matchResources?: unknown };
}

const toDate = (t: Date | string | undefined): Date | undefined => {
  if (t === undefined) return undefined;
  const d = t instanceof Date ? t : new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : d;
};

/**
 * Whether the policy `name` and its binding (undefined: not found) are in force, and since when.
 * In force: the binding binds that policy, denies (`Deny` among its actions), does not narrow
 * what it matches, and the policy fails closed. "Since" is the binding's newest server-set
 * write time (creation, or a later edit: an object created while the binding said only Warn
 * must not be trusted once it denies again), plus AdmissionPropagationSeconds.
 */
export function policyState(name: string, policy: PolicyFacts | undefined, binding: BindingFacts | undefined): PolicyState {
  const fix = 'kubectl apply -f deploy/base/image-policy.yaml';
  if (!policy) return { inForce: false, reason: `the ValidatingAdmissionPolicy "${name}" does not exist (${fix})` };
  if (!binding) return { inForce: false, reason: `the ValidatingAdmissionPolicyBinding "${name}" does not exist (${fix})` };
  if (binding.spec?.policyName !== name) return { inForce: false, reason: `the binding "${name}" does not bind the policy "${name}"` };
  if (!(binding.spec?.validationActions ?? []).includes('Deny')) {
    return { inForce: false, reason: `the binding "${name}" does not deny (spec.validationActions lacks Deny)` };
  }
  if (binding.spec?.matchResources) {
    return { inForce: false, reason: `the binding "${name}" sets spec.matchResources, so some objects are not checked` };
  }
  if ((policy.spec?.failurePolicy ?? 'Fail') !== 'Fail') {
    return { inForce: false, reason: `the policy "${name}" does not fail closed (spec.failurePolicy is not Fail)` };
  }
  const times = [binding.metadata?.creationTimestamp, ...(binding.metadata?.managedFields ?? []).map((f) => f.time)]
    .map(toDate).filter((d): d is Date => d !== undefined);
  if (times.length === 0) return { inForce: false, reason: `the binding "${name}" has no creationTimestamp` };
  const newest = Math.max(...times.map((d) => d.getTime()));
  return { inForce: true, since: new Date(newest + AdmissionPropagationSeconds * 1000) };
}

/**
 * `admission` mode's decision for one reference under `state`. Timestamps have one-second
 * precision, so an object must be created a full second after `since` (an object stamped in the
 * same second may have been admitted just before it).
 */
export function admissionRefusal(state: PolicyState, policyName: string, object: ReferringObject, sourceNamespace: string): string | undefined {
  const what = describe(object, sourceNamespace);
  if (!state.inForce) return `${what} refused: ${state.reason}`;
  const created = toDate(object.metadata.creationTimestamp);
  if (!created || created.getTime() < state.since.getTime() + 1000) {
    return `${what} refused: the ${object.kind ?? 'object'} was created before the admission policy "${policyName}" was in force `
      + `(${state.since.toISOString()}), so nobody checked that its writer may read images there; re-create it`;
  }
  return undefined;
}
