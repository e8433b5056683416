/**
 * `getTimeoutSecondsForStrategy` of the deployer controller: how long an RC may stay `New`
 * (no deployer pod created) before it is failed.
 */
import { Defaults } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';

/**
 * The strategy's `timeoutSeconds`: Rolling → `rollingParams.timeoutSeconds`, Recreate →
 * `recreateParams.timeoutSeconds` (each 600 when unset), Custom → 600, any other type → 0 (no
 * timeout). An encoded config may predate defaulting, so an absent type means Rolling, as the
 * API server's defaulting makes it (§2.2). A non-numeric value counts as unset.
 */
export function rolloutTimeoutSeconds(config: DeploymentConfig): number {
  const strategy = config.spec?.strategy;
  const pick = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
  switch (strategy?.type || 'Rolling') {
    case 'Rolling':
      return pick(strategy?.rollingParams?.timeoutSeconds, Defaults.RollingTimeoutSeconds);
    case 'Recreate':
      return pick(strategy?.recreateParams?.timeoutSeconds, Defaults.RecreateTimeoutSeconds);
    case 'Custom':
      return Defaults.RecreateTimeoutSeconds;
    default:
      return 0;
  }
}
