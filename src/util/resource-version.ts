/**
 * kube-apiserver's resourceVersions are etcd revisions: decimal integers, one sequence for every
 * resource. Other storages may use opaque strings, which are never compared.
 */

/** The integer value of a resourceVersion, or undefined when it is not one. */
export function resourceVersionNumber(rv: string | undefined): bigint | undefined {
  return rv && /^[0-9]+$/.test(rv) ? BigInt(rv) : undefined;
}
