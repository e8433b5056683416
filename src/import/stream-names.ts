/**
 * ImageStream names OpenShift took and a custom resource cannot have. OpenShift validated a
 * stream's name as an image repository's path component (`postgres_exporter`, with `_` or `__`
 * between lowercase letters and digits); kube-apiserver takes only DNS subdomains as the names of
 * custom resources. Import renames such a stream (each `_` becomes `-`) and rewrites the
 * references to it that the same import holds and that name no other namespace: ImageChange
 * triggers, tagImages hooks, the stream tags of other streams, and `image.openshift.io/triggers`
 * annotations. A stream whose new name is taken keeps its name, for the server to refuse.
 */
import { isObject, type ImportEntry } from './types.js';

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const repositoryComponent = /^[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*$/;
const triggersAnnotation = 'image.openshift.io/triggers';

/** Renames the imported streams a CRD cannot hold and rewrites their references, recording each change. */
export function renameStreamsForCrd(entries: ImportEntry[]): void {
  const imported = entries.filter((e) => e.kind === 'ImageStream' && e.outcome !== 'skipped' && e.object);
  const taken = new Set(imported.map((e) => e.name));
  const renamed = new Map<string, string>();
  for (const e of imported) {
    if (dnsSubdomain.test(e.name) || !repositoryComponent.test(e.name)) continue;
    const to = e.name.replace(/_/g, '-');
    if (to.length > 253 || !dnsSubdomain.test(to) || taken.has(to)) continue;
    taken.add(to);
    renamed.set(e.name, to);
  }
  if (renamed.size === 0) return;

  entries.forEach((e, i) => {
    if (e.outcome === 'skipped' || !e.object) return;
    const changes: string[] = [];
    const to = e.kind === 'ImageStream' ? renamed.get(e.name) : undefined;
    if (to !== undefined) {
      (e.object.metadata as Record<string, unknown>)['name'] = to;
      changes.push(`metadata.name: ${e.name} → ${to} (a custom resource's name must be a DNS subdomain; OpenShift named an ImageStream as an image repository, where "_" is allowed)`);
    }
    changes.push(...rewriteReferences(e.object, renamed));
    if (changes.length === 0) return;
    entries[i] = {
      ...e,
      ...(to !== undefined ? { name: to, ref: e.ref.replace(/\/[^/]*$/, `/${to}`) } : {}),
      outcome: 'changed',
      changes: [...e.changes, ...changes],
    };
  });
}

/** Rewrites every reference of `obj` to a renamed stream of this namespace; returns a change line each. */
function rewriteReferences(obj: Record<string, unknown>, renamed: ReadonlyMap<string, string>): string[] {
  const changes: string[] = [];
  // A reference `{kind, name, namespace}` at `path`: `stream:tag` (ImageStreamTag) or `stream@id` (ImageStreamImage).
  const visitRef = (ref: unknown, path: string, kinds: readonly string[]) => {
    if (!isObject(ref) || typeof ref['name'] !== 'string') return;
    if (!kinds.includes(typeof ref['kind'] === 'string' ? ref['kind'] : '')) return;
    if (typeof ref['namespace'] === 'string' && ref['namespace'] !== '') return;
    const at = ref['name'].search(/[:@]/);
    const stream = at < 0 ? ref['name'] : ref['name'].slice(0, at);
    const to = renamed.get(stream);
    if (to === undefined) return;
    const name = `${to}${at < 0 ? '' : ref['name'].slice(at)}`;
    changes.push(`${path}.name: ${ref['name']} → ${name} (the ImageStream ${stream} of this import is renamed)`);
    ref['name'] = name;
  };
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  if (obj['kind'] === 'DeploymentConfig') {
    list(spec['triggers']).forEach((t, i) => {
      if (isObject(t) && isObject(t['imageChangeParams'])) visitRef(t['imageChangeParams']['from'], `spec.triggers[${i}].imageChangeParams.from`, ['ImageStreamTag', '']);
    });
    const strategy = isObject(spec['strategy']) ? spec['strategy'] : {};
    for (const params of ['recreateParams', 'rollingParams']) {
      const p = isObject(strategy[params]) ? strategy[params] : {};
      for (const point of ['pre', 'mid', 'post']) {
        const hook = isObject(p[point]) ? p[point] : {};
        list(hook['tagImages']).forEach((t, i) => {
          if (isObject(t)) visitRef(t['to'], `spec.strategy.${params}.${point}.tagImages[${i}].to`, ['ImageStreamTag']);
        });
      }
    }
  }
  if (obj['kind'] === 'ImageStream') {
    list(spec['tags']).forEach((t, i) => {
      if (isObject(t)) visitRef(t['from'], `spec.tags[${i}].from`, ['ImageStreamTag', 'ImageStreamImage']);
    });
  }
  const meta = isObject(obj['metadata']) ? obj['metadata'] : {};
  const annotations = isObject(meta['annotations']) ? meta['annotations'] : {};
  const raw = annotations[triggersAnnotation];
  if (typeof raw === 'string') {
    let triggers: unknown;
    try {
      triggers = JSON.parse(raw);
    } catch {
      return changes; // not ours to judge: the server's admission or the trigger controller reports it
    }
    const before = changes.length;
    list(triggers).forEach((t, i) => {
      if (isObject(t)) visitRef(t['from'], `metadata.annotations["${triggersAnnotation}"][${i}].from`, ['ImageStreamTag', '']);
    });
    if (changes.length > before) annotations[triggersAnnotation] = JSON.stringify(triggers);
  }
  return changes;
}
