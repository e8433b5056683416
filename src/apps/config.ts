/**
 * The DeploymentConfig side of OpenShift's apps helpers (library-go `appsutil`): triggers, the
 * rolling fenceposts and the scale selector, read from a (defaulted) DC. Pure: no I/O.
 */
import { Labels } from '../apis/constants.js';
import type { DeploymentConfig, DeploymentTriggerPolicy } from '../apis/deploymentconfig.js';
import { resolveFenceposts } from '../util/intstr.js';
import { selectorString } from './deployment.js';

/** `MaxUnavailable`: 0 unless Rolling; malformed values (caught by validation) count as 0. */
export function maxUnavailable(dc: DeploymentConfig): number {
  const strategy = dc.spec.strategy;
  if ((strategy?.type ?? 'Rolling') !== 'Rolling') return 0;
  try {
    const p = strategy?.rollingParams;
    return resolveFenceposts(p?.maxSurge, p?.maxUnavailable, dc.spec.replicas ?? 0).unavailable;
  } catch {
    return 0;
  }
}

const triggersOf = (dc: DeploymentConfig): DeploymentTriggerPolicy[] => dc.spec.triggers ?? [];

/** Has a ConfigChange trigger. */
export const hasChangeTrigger = (dc: DeploymentConfig): boolean => triggersOf(dc).some((t) => t.type === 'ConfigChange');

/** Has an ImageChange trigger (with params; a trigger without them is invalid and ignored). */
export const hasImageChangeTrigger = (dc: DeploymentConfig): boolean =>
  triggersOf(dc).some((t) => t.type === 'ImageChange' && t.imageChangeParams !== undefined);

/** Has any trigger that can start a rollout on its own. */
export const hasTriggers = (dc: DeploymentConfig): boolean => hasChangeTrigger(dc) || hasImageChangeTrigger(dc);

/** `HasLastTriggeredImage`: every ImageChange trigger has resolved an image. */
export const allImageTriggersResolved = (dc: DeploymentConfig): boolean =>
  triggersOf(dc).every((t) => t.type !== 'ImageChange' || !!t.imageChangeParams?.lastTriggeredImage);

/** ImageChange triggers that have not resolved an image yet. */
export const unresolvedImageTriggers = (dc: DeploymentConfig): DeploymentTriggerPolicy[] =>
  triggersOf(dc).filter((t) => t.type === 'ImageChange' && t.imageChangeParams && !t.imageChangeParams.lastTriggeredImage);

/** The scale subresource selector: spec.selector plus `deploymentconfig=<name>`. */
export function scaleSelector(dc: DeploymentConfig): string {
  return selectorString({ ...(dc.spec.selector ?? {}), [Labels.DeploymentConfigShort]: dc.metadata.name ?? '' });
}

/** True when any regular container has an empty (or all-whitespace) image. */
export const hasEmptyImage = (dc: DeploymentConfig): boolean =>
  (dc.spec.template?.spec?.containers ?? []).some((c) => (c.image ?? '').trim() === '');
