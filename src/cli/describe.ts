/**
 * A subset of kubectl's `DescribePodTemplate`, which oc uses for `rollout history --revision`
 * and `rollout undo --dry-run`. Like oc, the text keeps raw tabs (oc writes through a plain
 * PrefixWriter, not a tabwriter), so terminals align it on tab stops.
 */
import type { V1Container, V1EnvVar, V1PodTemplateSpec, V1Volume } from '@kubernetes/client-node';

const L1 = '  ';
const L2 = '    ';
const L3 = '      ';
const maxAnnotationLen = 140;

/** Renders the pod template block, ending with a newline. */
export function describePodTemplate(template: V1PodTemplateSpec | undefined): string {
  const out: string[] = ['Pod Template:\n'];
  if (!template) {
    out.push(`${L1}<unset>`);
    return out.join('');
  }
  const spec = template.spec;
  out.push(labelsMultiline('  Labels', template.metadata?.labels));
  const annotations = template.metadata?.annotations;
  if (annotations && Object.keys(annotations).length > 0) out.push(annotationsMultiline('  Annotations', annotations));
  if (spec?.serviceAccountName) out.push(`${L1}Service Account:\t${spec.serviceAccountName}\n`);
  if (spec?.initContainers && spec.initContainers.length > 0) out.push(containers('Init Containers', spec.initContainers));
  out.push(containers('Containers', spec?.containers ?? []));
  out.push(volumes(spec?.volumes ?? []));
  if (spec?.priorityClassName) out.push(`${L1}Priority Class Name:\t${spec.priorityClassName}\n`);
  out.push(labelsMultiline('  Node-Selectors', spec?.nodeSelector));
  const tolerations = spec?.tolerations ?? [];
  if (tolerations.length === 0) out.push('  Tolerations:\t<none>\n');
  else {
    tolerations.forEach((t, i) => {
      const head = i === 0 ? '  Tolerations:\t' : '\t';
      let s = t.key ?? '';
      if (t.value) s += `=${t.value}`;
      if (t.effect) s += `:${t.effect}`;
      if (t.operator === 'Exists' && !t.value) s += ' op=Exists';
      if (t.tolerationSeconds !== undefined) s += ` for ${t.tolerationSeconds}s`;
      out.push(`${head}${s}\n`);
    });
  }
  return out.join('');
}

function labelsMultiline(title: string, labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return `${title}:\t<none>\n`;
  return keys.map((k, i) => `${i === 0 ? `${title}:\t` : '\t'}${k}=${labels?.[k] ?? ''}\n`).join('');
}

function annotationsMultiline(title: string, annotations: Record<string, string>): string {
  const keys = Object.keys(annotations).sort();
  let s = `${title}:\t`;
  keys.forEach((key, i) => {
    if (i !== 0) s += '\t';
    const value = (annotations[key] ?? '').replace(/\n$/, '');
    if (value.length + key.length + 2 > maxAnnotationLen || value.includes('\n')) {
      s += `${key}:\n`;
      for (const line of value.split('\n')) s += `\t  ${shorten(line, maxAnnotationLen - 2)}\n`;
    } else {
      s += `${key}: ${value}\n`;
    }
  });
  return s;
}

const shorten = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max)}...` : s);

function containers(label: string, list: V1Container[]): string {
  let s = `  ${label}:${list.length === 0 ? ' <none>' : ''}\n`;
  for (const c of list) {
    s += `${L1} ${c.name}:\n`;
    s += `${L2}Image:\t${c.image ?? ''}\n`;
    const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`).join(', ');
    s += ports.includes(',') ? `${L2}Ports:\t${ports}\n` : `${L2}Port:\t${ports || '<none>'}\n`;
    const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    s += hostPorts.includes(',') ? `${L2}Host Ports:\t${hostPorts}\n` : `${L2}Host Port:\t${hostPorts || '<none>'}\n`;
    for (const [title, items] of [['Command', c.command], ['Args', c.args]] as const) {
      if (items && items.length > 0) {
        s += `${L2}${title}:\n`;
        for (const item of items) for (const line of item.split('\n')) s += `${L3}${line}\n`;
      }
    }
    for (const [title, res] of [['Limits', c.resources?.limits], ['Requests', c.resources?.requests]] as const) {
      const names = Object.keys(res ?? {}).sort();
      if (names.length > 0) {
        s += `${L2}${title}:\n`;
        for (const n of names) s += `${L3}${n}:\t${String(res?.[n])}\n`;
      }
    }
    s += env(c.env ?? []);
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => a.mountPath.localeCompare(b.mountPath));
    s += `${L2}Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`;
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw'];
      if (m.subPath) flags.push(`path="${m.subPath}"`);
      s += `${L3}${m.mountPath} from ${m.name} (${flags.join(',')})\n`;
    }
  }
  return s;
}

function env(vars: V1EnvVar[]): string {
  let s = `${L2}Environment:${vars.length === 0 ? '\t<none>' : ''}\n`;
  for (const e of vars) {
    const from = e.valueFrom;
    if (!from) {
      (e.value ?? '').split('\n').forEach((line, i) => { s += i === 0 ? `${L3}${e.name}:\t${line}\n` : `${L3}\t${line}\n`; });
    } else if (from.fieldRef) {
      s += `${L3}${e.name}:\t (${from.fieldRef.apiVersion ?? 'v1'}:${from.fieldRef.fieldPath})\n`;
    } else if (from.resourceFieldRef) {
      s += `${L3}${e.name}:\t${from.resourceFieldRef.resource} (${from.resourceFieldRef.containerName ?? ''})\n`;
    } else if (from.secretKeyRef) {
      s += `${L3}${e.name}:\t<set to the key '${from.secretKeyRef.key}' in secret '${from.secretKeyRef.name ?? ''}'>\tOptional: ${from.secretKeyRef.optional ?? false}\n`;
    } else if (from.configMapKeyRef) {
      s += `${L3}${e.name}:\t<set to the key '${from.configMapKeyRef.key}' of config map '${from.configMapKeyRef.name ?? ''}'>\tOptional: ${from.configMapKeyRef.optional ?? false}\n`;
    }
  }
  return s;
}

function volumes(list: V1Volume[]): string {
  if (list.length === 0) return '  Volumes:\t<none>\n';
  let s = '  Volumes:\n';
  for (const v of list) {
    s += `${L1} ${v.name}:\n`;
    const kind = Object.keys(v).find((k) => k !== 'name');
    s += `${L2}Type:\t${kind ?? '<unknown>'}\n`;
  }
  return s;
}
