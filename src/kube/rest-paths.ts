/**
 * Request paths and object names for the small JSON client's users (src/kube/rest-clients.ts for
 * the controller, src/kube/deployer-rest.ts for the deployer). No imports, so the deployer bundle
 * stays small.
 */

/** `<prefix>/namespaces/<ns>/<resource>[/<name>[/<sub>]]`, with the namespace and name escaped. */
function namespaced(prefix: string, namespace: string, resource: string, name?: string, sub?: string): string {
  const segment = encodeURIComponent;
  return `${prefix}/namespaces/${segment(namespace)}/${resource}${name === undefined ? '' : `/${segment(name)}`}${sub ? `/${sub}` : ''}`;
}

/** `/api/v1/namespaces/<ns>/<resource>[/<name>[/<sub>]]`, with each segment escaped. */
export function corePath(namespace: string, resource: string, name?: string, sub?: string): string {
  return namespaced('/api/v1', namespace, resource, name, sub);
}

/** `/apis/<group>/<version>/namespaces/<ns>/<resource>[/<name>[/<sub>]]`, with each segment escaped. */
export function groupPath(group: string, version: string, namespace: string, resource: string, name?: string, sub?: string): string {
  return namespaced(`/apis/${group}/${version}`, namespace, resource, name, sub);
}

/** The name and namespace a write addresses; an object without them is a programming error. */
export function named(obj: { metadata?: { name?: string; namespace?: string } }): { name: string; namespace: string } {
  const name = obj.metadata?.name;
  const namespace = obj.metadata?.namespace;
  if (!name || !namespace) throw new TypeError('object must have metadata.name and metadata.namespace');
  return { name, namespace };
}
