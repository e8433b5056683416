/**
 * The pod template of a DC as the template of a ReplicationController, for the server to judge.
 * OpenShift's API validated every DC's template as an RC's (ValidatePodTemplateSpecForRC); a CRD
 * cannot, so `dcctl import` and the aggregated API server dry-run-create such an RC instead.
 */
import { isObject } from '../util/is-object.js';

/** The image OpenShift's DC validation put in a container an ImageChange trigger sets, for the template check. */
const UnsetImage = 'unset';

/**
 * The causes of the probe RC's refusal that are the DC's: those in its pod template, whose field
 * paths (`spec.template...`) are the same in the DC. The rest concern fields the probe made up.
 */
export function templateCauses<C extends { readonly field?: string }>(causes: readonly C[] | undefined): C[] {
  return (causes ?? []).filter((c) => c.field?.startsWith('spec.template'));
}

/**
 * A ReplicationController carrying the DC's pod template, to dry-run as the server will check the
 * RCs the DC makes (ValidatePodTemplateSpecForRC, which OpenShift's API applied to the DC itself
 * and a CRD cannot). An empty image of a container an ImageChange trigger names becomes "unset",
 * as in OpenShift's validation; nothing else is changed, so the server's field paths are the DC's.
 */
export function replicationControllerProbe(dc: Record<string, unknown>, namespace: string): Record<string, unknown> | undefined {
  const spec = isObject(dc['spec']) ? dc['spec'] : undefined;
  const template = spec && isObject(spec['template']) ? structuredClone(spec['template']) : undefined;
  if (!spec || !template) return undefined;
  const meta = isObject(dc['metadata']) ? dc['metadata'] : {};
  const name = typeof meta['name'] === 'string' && meta['name'] !== '' ? meta['name'] : typeof meta['generateName'] === 'string' ? meta['generateName'] : 'dc';
  const triggered = new Set((Array.isArray(spec['triggers']) ? spec['triggers'] : []).flatMap((t: unknown) => {
    const params = isObject(t) && isObject(t['imageChangeParams']) ? t['imageChangeParams'] : undefined;
    return params && Array.isArray(params['containerNames']) ? params['containerNames'].filter((n: unknown): n is string => typeof n === 'string') : [];
  }));
  const podSpec = isObject(template['spec']) ? template['spec'] : undefined;
  for (const c of podSpec && Array.isArray(podSpec['containers']) ? podSpec['containers'] : []) {
    if (isObject(c) && typeof c['name'] === 'string' && triggered.has(c['name']) && (c['image'] === undefined || c['image'] === '')) c['image'] = UnsetImage;
  }
  const labels = isObject(template['metadata']) && isObject(template['metadata']['labels']) ? template['metadata']['labels'] : {};
  return {
    apiVersion: 'v1', kind: 'ReplicationController',
    metadata: { generateName: `${name.replace(/-$/, '')}-`, namespace },
    spec: { replicas: 0, selector: isObject(spec['selector']) && Object.keys(spec['selector']).length > 0 ? spec['selector'] : labels, template },
  };
}
