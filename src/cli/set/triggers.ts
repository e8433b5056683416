/**
 * `set triggers` pure parts, after `oc set triggers` (pkg/cli/set/triggers.go): the DC's triggers
 * as an abstract definition (config change on/off, image triggers with auto flags), the flag
 * rules, the update, and writing the definition back. One deliberate difference: an image
 * trigger that survives an update keeps its `lastTriggeredImage` (oc drops it, which makes the
 * next image resolution look like a change).
 */
import type { DeploymentConfig, DeploymentTriggerPolicy } from '../../apis/deploymentconfig.js';
import { CliError } from '../errors.js';

export interface ImageTrigger { auto: boolean; from: string; namespace: string; names: string[] }
export interface TriggerDefinition { configChange: boolean; imageChange: ImageTrigger[] }

export interface TriggersFlags {
  readonly auto?: boolean;
  readonly manual?: boolean;
  readonly remove?: boolean;
  readonly removeAll?: boolean;
  readonly fromConfig?: boolean;
  /** `[namespace/]stream:tag` */
  readonly fromImage?: string;
  /** `--containers` / `-c`: comma-separated. */
  readonly containers?: string;
}

/** What the flags ask for, after oc's Complete/Validate. */
export type TriggersAction =
  | { kind: 'print' }
  | { kind: 'update'; flags: Required<Pick<TriggersFlags, 'auto' | 'manual' | 'remove' | 'removeAll' | 'fromConfig'>> & { fromImage?: { from: string; namespace: string }; containers?: string; reset: boolean } };

/** `--from-image` must be an image stream tag on this server: `[ns/]name:tag`. */
export function parseFromImage(value: string, namespace: string): { from: string; namespace: string } {
  const m = /^(?:([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/)?([a-z0-9][-a-z0-9._]*):([\w][\w.-]{0,127})$/.exec(value);
  if (!m) {
    if (/^[^/]+[.:][^/]*\/.+/.test(value) || value.includes('@')) throw new CliError('the value of --from-image must point to an image stream tag on this server');
    if (!value.includes(':')) throw new CliError('the value of --from-image must include the tag you wish to pull from');
    throw new CliError(`the value of --from-image does not appear to be a valid reference to an image: ${value}`);
  }
  const ns = m[1];
  // oc stores the namespace only when it differs from the object's own.
  return { from: `${m[3]}:${m[4]}`, namespace: ns && ns !== namespace ? ns : '' };
}

/** oc's Complete + Validate. */
export function triggersAction(flags: TriggersFlags, namespace: string): TriggersAction {
  const fromImage = flags.fromImage ? parseFromImage(flags.fromImage, namespace) : undefined;
  const count = (flags.fromConfig ? 1 : 0) + (fromImage ? 1 : 0);
  let auto = flags.auto ?? false;
  const manual = flags.manual ?? false;
  const remove = flags.remove ?? false;
  const removeAll = flags.removeAll ?? false;
  if (auto && manual) throw new CliError('you must specify at most one of --auto or --manual');
  if (remove && removeAll) throw new CliError('you must specify either --remove or --remove-all');
  if (removeAll && (count !== 0 || auto || manual)) throw new CliError('--remove-all may not be used with any other flag');
  if (remove && count < 1) throw new CliError('--remove requires a flag defining a trigger type to be specified');
  if (count > 1) throw new CliError('you may only set one trigger type at a time');
  if (count === 0 && !remove && !removeAll && !auto && !manual) return { kind: 'print' };
  const reset = count === 0 && (auto || manual);
  if (!removeAll && !auto && !manual) auto = true;
  return { kind: 'update', flags: { auto, manual, remove, removeAll, fromConfig: flags.fromConfig ?? false, fromImage, containers: flags.containers, reset } };
}

/** The DC's triggers as a definition (oc's NewDeploymentConfigTriggers). */
export function definitionOf(dc: DeploymentConfig): TriggerDefinition {
  const def: TriggerDefinition = { configChange: false, imageChange: [] };
  const own = dc.metadata.namespace ?? '';
  for (const t of dc.spec.triggers ?? []) {
    if (t.type === 'ConfigChange') def.configChange = true;
    if (t.type === 'ImageChange' && t.imageChangeParams) {
      const p = t.imageChangeParams;
      def.imageChange.push({
        auto: p.automatic ?? false,
        names: [...(p.containerNames ?? [])],
        from: p.from.name ?? '',
        namespace: p.from.namespace && p.from.namespace !== own ? p.from.namespace : '',
      });
    }
  }
  return def;
}

/** oc's updateTriggers. */
export function updateDefinition(def: TriggerDefinition, action: Extract<TriggersAction, { kind: 'update' }>): TriggerDefinition {
  const f = action.flags;
  if (f.removeAll) return { configChange: false, imageChange: [] };
  const next: TriggerDefinition = { configChange: def.configChange, imageChange: def.imageChange.map((t) => ({ ...t, names: [...t.names] })) };
  if (f.remove) {
    if (f.fromConfig) next.configChange = false;
    if (f.fromImage) next.imageChange = next.imageChange.filter((t) => t.from !== f.fromImage?.from);
    return next;
  }
  if (f.reset) {
    next.configChange = f.auto;
    for (const t of next.imageChange) t.auto = f.auto;
    return next;
  }
  if (f.fromConfig) next.configChange = true;
  if (f.fromImage) {
    const names = f.containers ? f.containers.split(',') : [];
    const existing = next.imageChange.find((t) => t.from === f.fromImage?.from && t.namespace === f.fromImage.namespace);
    if (existing) {
      existing.auto = !f.manual;
      existing.names = names;
    } else {
      next.imageChange.push({ from: f.fromImage.from, namespace: f.fromImage.namespace, auto: !f.manual, names });
    }
  }
  return next;
}

/** Writes the definition into a copy of the DC's triggers (oc's TriggerDefinition.Apply). */
export function applyDefinition(dc: DeploymentConfig, def: TriggerDefinition): DeploymentTriggerPolicy[] {
  const template = dc.spec.template?.spec;
  const allNames = new Set([...(template?.containers ?? []), ...(template?.initContainers ?? [])].map((c) => c.name));
  const triggers: DeploymentTriggerPolicy[] = [];
  if (def.configChange) triggers.push({ type: 'ConfigChange' });
  for (const t of def.imageChange) {
    if (t.names.length === 0) throw new CliError('you must specify --containers when setting --from-image');
    const missing = [...new Set(t.names)].filter((n) => !allNames.has(n)).sort();
    if (missing.length > 0) throw new CliError(`not all container names exist: ${missing.join(', ')} (accepts: ${[...allNames].sort().join(', ')})`);
    const previous = (dc.spec.triggers ?? []).find((p) => p.type === 'ImageChange' && p.imageChangeParams?.from.name === t.from
      && (p.imageChangeParams.from.namespace && p.imageChangeParams.from.namespace !== dc.metadata.namespace ? p.imageChangeParams.from.namespace : '') === t.namespace);
    triggers.push({
      type: 'ImageChange',
      imageChangeParams: {
        automatic: t.auto,
        from: { kind: 'ImageStreamTag', name: t.from, ...(t.namespace ? { namespace: t.namespace } : {}) },
        containerNames: t.names,
        ...(previous?.imageChangeParams?.lastTriggeredImage ? { lastTriggeredImage: previous.imageChangeParams.lastTriggeredImage } : {}),
      },
    });
  }
  return triggers;
}

/** The table `oc set triggers dc/x` prints with no change flags. */
export function triggersTable(dc: DeploymentConfig): string[][] {
  const name = `deploymentconfigs/${dc.metadata.name ?? ''}`;
  const def = definitionOf(dc);
  const rows = [['NAME', 'TYPE', 'VALUE', 'AUTO'], [name, 'config', '', String(def.configChange)]];
  for (const t of def.imageChange) {
    const from = t.namespace ? `${t.namespace}/${t.from}` : t.from;
    rows.push([name, 'image', t.names.length > 0 ? `${from} (${t.names.join(', ')})` : from, String(t.auto)]);
  }
  return rows;
}
