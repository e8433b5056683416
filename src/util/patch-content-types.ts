/**
 * The Content-Type of each patch format kube-apiserver takes. Its own module, free of imports, so
 * the deployer's bundle can use it without the API front's patch machinery.
 */
export const PatchContentTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
  applyCbor: 'application/apply-patch+cbor',
} as const;
