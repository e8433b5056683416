/** Work-queue keys are `namespace/name`, built and split only here. */
export const objectKey = (namespace: string, name: string): string => `${namespace}/${name}`;

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) throw new Error(`invalid object key "${key}"`);
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
