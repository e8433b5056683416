/**
 * Where a schema holds the places of one kind (Quantities, maps of strings): 1 at such a place;
 * else `p` properties, `i` list items, `a` map values down to them. hack/gen-crd.mjs writes one per
 * kind from the DC's CRD schema (its `leafSkeleton`), so the readers need not carry the schema.
 */
export type MarkedSkeleton = 1 | {
  readonly p?: Readonly<Record<string, MarkedSkeleton>>;
  readonly i?: MarkedSkeleton;
  readonly a?: MarkedSkeleton;
};
