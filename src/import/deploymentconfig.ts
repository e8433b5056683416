/**
 * DeploymentConfig-specific import: removes what OpenShift wrote into the spec
 * (`lastTriggeredImage`, `from.namespace` pointing at the exported project) and lists the DC
 * features this project serves differently from OpenShift, or not at all.
 */
import { isObject, type KubeObject } from './types.js';

/** Context of one DC import. */
export interface DcContext {
  /** The DC came with the legacy group-less `apiVersion: v1`. */
  readonly legacy: boolean;
  /** `metadata.namespace` of the export (removed), if it had one. */
  readonly exportedNamespace?: string;
  /** Names of the ImageStreams imported together with this DC. */
  readonly importedStreams: ReadonlySet<string>;
}

const internalRegistry = /^(image-registry\.openshift-image-registry\.svc(:\d+)?|docker-registry\.default\.svc(:\d+)?|172\.30\.\d+\.\d+:5000|default-route-openshift-image-registry\.[^/]+)\//;
const openshiftDeployer = /(^|\/)(origin-deployer|ose-deployer)(:|@|$)/;

// OpenShift stored any non-empty failure policy; only these three have a meaning of their own.
const hookFailurePolicies = ['Abort', 'Retry', 'Ignore'];

const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** Mutates `dc`; returns the changes made and the notes for the report. */
export function importDeploymentConfig(dc: KubeObject, ctx: DcContext): { changes: string[]; notes: string[] } {
  const changes: string[] = [];
  const notes: string[] = [];
  const spec = isObject(dc['spec']) ? dc['spec'] : {};

  records(spec['triggers']).forEach((trigger, i) => {
    if (trigger['type'] !== 'ImageChange') return;
    const params = isObject(trigger['imageChangeParams']) ? trigger['imageChangeParams'] : undefined;
    if (!params) return;
    const path = `spec.triggers[${i}].imageChangeParams`;
    if ('lastTriggeredImage' in params) {
      delete params['lastTriggeredImage'];
      changes.push(`removed ${path}.lastTriggeredImage (written by the image trigger controller)`);
    }
    const from = isObject(params['from']) ? params['from'] : {};
    if (ctx.exportedNamespace !== undefined && from['namespace'] === ctx.exportedNamespace) {
      delete from['namespace'];
      changes.push(`removed ${path}.from.namespace "${ctx.exportedNamespace}" (the exported project; it now defaults to the DC's namespace)`);
    }
    const tag = typeof from['name'] === 'string' ? from['name'] : '?';
    const stream = tag.split(':')[0] ?? tag;
    const streamNs = typeof from['namespace'] === 'string' ? `${from['namespace']}/` : '';
    const imported = streamNs === '' && ctx.importedStreams.has(stream)
      ? `ImageStream ${stream} is part of this import`
      : `ImageStream ${streamNs}${stream} is not part of this import: create it`;
    const automatic = params['automatic'] !== false
      ? 'the first rollout waits until the trigger is resolved'
      : 'it is not automatic: only `dcctl rollout latest` resolves it';
    notes.push(`ImageChange trigger on ImageStreamTag ${streamNs}${tag} needs the image trigger controller and the ImageStream CRD (crds/imagestream.yaml); ${imported}; ${automatic}`);
  });

  const strategy = isObject(spec['strategy']) ? spec['strategy'] : {};
  for (const [paramsKey, hooks] of [['recreateParams', ['pre', 'mid', 'post']], ['rollingParams', ['pre', 'post']]] as const) {
    const p = isObject(strategy[paramsKey]) ? strategy[paramsKey] : {};
    for (const hook of hooks) {
      const h = isObject(p[hook]) ? p[hook] : undefined;
      const policy = h?.['failurePolicy'];
      if (typeof policy === 'string' && policy !== '' && !hookFailurePolicies.includes(policy)) {
        const meant = hookFailurePolicies.find((p) => p.toLowerCase() === policy.toLowerCase());
        notes.push(`spec.strategy.${paramsKey}.${hook}.failurePolicy "${policy}" is none of ${hookFailurePolicies.join(', ')}: as on OpenShift, a failure of this hook fails the rollout, without the Failed event${meant ? ` (for "${meant}", write it so)` : ''}`);
      }
      if (h && Array.isArray(h['tagImages']) && h['tagImages'].length > 0) {
        notes.push(`spec.strategy.${paramsKey}.${hook}.tagImages tags images into ImageStreams: the hook fails unless the ImageStream CRD is installed and served`);
      }
    }
  }
  const custom = isObject(strategy['customParams']) ? strategy['customParams'] : undefined;
  if (custom && typeof custom['image'] === 'string' && openshiftDeployer.test(custom['image'])) {
    notes.push(`spec.strategy.customParams.image "${custom['image']}" is OpenShift's deployer, which needs the OpenShift API; remove customParams.image to use this project's deployer (dcctl controller --deployer-image)`);
  }

  const template = isObject(spec['template']) ? spec['template'] : {};
  const podSpec = isObject(template['spec']) ? template['spec'] : {};
  for (const field of ['initContainers', 'containers'] as const) {
    records(podSpec[field]).forEach((c) => {
      if (typeof c['image'] === 'string' && internalRegistry.test(c['image'])) {
        notes.push(`container ${String(c['name'])} uses ${c['image']} from OpenShift's internal registry, which this cluster cannot pull from: push the image to a reachable registry`);
      }
    });
  }

  if (ctx.legacy) {
    if (spec['revisionHistoryLimit'] === undefined) {
      notes.push('the legacy v1 API kept every old ReplicationController; apps.openshift.io/v1 (and this CRD) keeps 10: set spec.revisionHistoryLimit to keep more');
    }
    notes.push('the legacy v1 API orphaned ReplicationControllers when the DC was deleted; here deleting the DC deletes them (use --cascade=orphan to keep them)');
  }
  return { changes, notes };
}

