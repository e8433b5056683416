/**
 * The conditional defaults of openshift-apiserver `apps/v1/defaults.go` (§2.2) that an OpenAPI
 * schema cannot express. A CRD has no defaulting hook that sees the whole object, so every
 * controller applies these whenever it reads a DC; the result is what OpenShift would have stored.
 */
import { Defaults } from '../apis/constants.js';
import { dcSpecWithoutNulls } from '../apis/nulls.js';
import type {
  DeploymentConfig, DeploymentStrategy, IntOrString, LifecycleHook, RollingDeploymentStrategyParams,
} from '../apis/deploymentconfig.js';

const isZero = (v: IntOrString | undefined): boolean => v === 0 || v === '0%';

function defaultHookContainer(hook: LifecycleHook | undefined, container: string): void {
  if (!hook) return;
  if (hook.execNewPod && !hook.execNewPod.containerName) hook.execNewPod.containerName = container;
  for (const tag of hook.tagImages ?? []) {
    if (!tag.containerName) tag.containerName = container;
  }
}

function defaultRollingParams(p: RollingDeploymentStrategyParams): void {
  p.intervalSeconds ??= Defaults.RollingIntervalSeconds;
  p.updatePeriodSeconds ??= Defaults.RollingUpdatePeriodSeconds;
  p.timeoutSeconds ??= Defaults.RollingTimeoutSeconds;
  if (p.maxUnavailable == null && p.maxSurge == null) {
    p.maxUnavailable = '25%';
    p.maxSurge = '25%';
  } else if (p.maxUnavailable == null && isZero(p.maxSurge)) {
    p.maxUnavailable = '25%';
  } else if (p.maxSurge == null && isZero(p.maxUnavailable)) {
    p.maxSurge = '25%';
  }
  // OpenShift's internal type is not a pointer, so a lone nil reads back as integer 0 after the
  // v1 → internal → v1 round trip; reproduce that so `get -o yaml` and the encoded config match.
  p.maxUnavailable ??= 0;
  p.maxSurge ??= 0;
}

function defaultStrategy(strategy: DeploymentStrategy): void {
  strategy.type ||= 'Rolling';
  if (strategy.type === 'Rolling' && !strategy.rollingParams) {
    strategy.rollingParams = {
      intervalSeconds: Defaults.RollingIntervalSeconds,
      updatePeriodSeconds: Defaults.RollingUpdatePeriodSeconds,
      timeoutSeconds: Defaults.RollingTimeoutSeconds,
    };
  }
  if (strategy.type === 'Recreate' && !strategy.recreateParams) strategy.recreateParams = {};
  strategy.activeDeadlineSeconds ??= Defaults.MaxDeploymentDurationSeconds;
  if (strategy.recreateParams) strategy.recreateParams.timeoutSeconds ??= Defaults.RecreateTimeoutSeconds;
  if (strategy.rollingParams) defaultRollingParams(strategy.rollingParams);
}

/**
 * Returns a defaulted deep copy of `dc` (the input, typically a cache object, is never touched).
 * Order follows `zz_generated.defaults.go`: DC level, spec level, strategy, recreate, rolling.
 */
export function applyDefaults(input: DeploymentConfig): DeploymentConfig {
  return defaultInPlace(structuredClone(input));
}

/**
 * applyDefaults without the copy, for a DC the caller owns and nobody else holds: one just
 * decoded from an RC's encoded config (a deep copy of that costs as much as the decoding).
 */
export function defaultInPlace(dc: DeploymentConfig): DeploymentConfig {
  // OpenShift stored no null field: its decoder read one as absent, a null in a map of strings as
  // "" and one in a map of Quantities as "0" (src/apis/nulls.ts).
  dc.spec = dcSpecWithoutNulls(dc.spec ?? {});
  const spec = dc.spec;

  for (const trigger of spec.triggers ?? []) {
    const params = trigger.imageChangeParams;
    if (!params) continue;
    params.from ??= {};
    params.from.kind ||= 'ImageStreamTag';
    if (!params.from.namespace && dc.metadata?.namespace) params.from.namespace = dc.metadata.namespace;
  }

  // null/absent → [ConfigChange]; an explicit [] deliberately stays empty (manual only).
  if (spec.triggers == null) spec.triggers = [{ type: 'ConfigChange' }];

  const templateLabels = spec.template?.metadata?.labels;
  if ((!spec.selector || Object.keys(spec.selector).length === 0) && spec.template) {
    if (templateLabels) spec.selector = { ...templateLabels };
  }

  spec.strategy ??= {};
  const containers = spec.template?.spec?.containers ?? [];
  if (containers.length === 1 && containers[0]?.name) {
    const name = containers[0].name;
    const { recreateParams: rc, rollingParams: ro } = spec.strategy;
    for (const hook of [rc?.pre, rc?.mid, rc?.post, ro?.pre, ro?.post]) defaultHookContainer(hook, name);
  }

  defaultStrategy(spec.strategy);
  return dc;
}
