/**
 * Go's `fmt` verbs for values that appear in OpenShift's messages and events, so text that tools
 * and users grep for reads the same as upstream.
 */

/** Go's `%q` of a string, close enough for messages (JSON escaping). */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}

/** Go's `%v` of a `map[string]string`: `map[k1:v1 k2:v2]` with sorted keys. */
export function formatGoMap(map: Record<string, string> | undefined): string {
  const entries = Object.keys(map ?? {}).sort().map((k) => `${k}:${map?.[k] ?? ''}`);
  return `map[${entries.join(' ')}]`;
}
