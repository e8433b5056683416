/**
 * The default WatchDeploymentConfig: a GET every interval. Polling keeps the CLI within the
 * permissions a DC editor has (get), needs no watch plumbing, and re-reads after every tick so
 * RCs and pods fetched alongside stay in step with the DC.
 */
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isNotFound } from '../controller/errors.js';
import type { DeploymentConfigClient } from '../controller/ports.js';
import { setLongTimeout, sleep } from '../util/sleep.js';
import { dcNotFound } from './errors.js';
import type { CliContext, WatchDeploymentConfig } from './ports.js';

/** Polls `dcs.get` every `intervalMs` (default 1 s) until the signal aborts. */
export function pollingWatch(dcs: DeploymentConfigClient, intervalMs = 1000): WatchDeploymentConfig {
  return async function* watch(namespace, name, signal) {
    while (!signal.aborted) {
      yield await dcs.get(namespace, name);
      await sleep(intervalMs, signal);
    }
  };
}

/** An AbortSignal that fires after `timeoutMs`; 0 or less means never. `dispose` clears the timer. */
export function deadline(timeoutMs: number): { signal: AbortSignal; dispose(): void; expired(): boolean } {
  const controller = new AbortController();
  let fired = false;
  const timer = timeoutMs > 0 ? setLongTimeout(() => { fired = true; controller.abort(); }, timeoutMs) : undefined;
  return {
    signal: controller.signal,
    dispose: () => { timer?.clear(); controller.abort(); },
    expired: () => fired,
  };
}

/**
 * Watches DC `name` until `decide` returns a value (or throws), for at most `timeoutMs` (0 or
 * less: no limit); undefined once the time is up. A DC that is gone is reported as not found.
 */
export async function watchDcUntil<T>(
  ctx: CliContext,
  name: string,
  timeoutMs: number,
  decide: (dc: DeploymentConfig) => T | undefined | Promise<T | undefined>,
): Promise<T | undefined> {
  const timer = deadline(timeoutMs);
  try {
    for await (const dc of ctx.watchDc(ctx.namespace, name, timer.signal)) {
      const decided = await decide(dc);
      if (decided !== undefined) return decided;
      if (timer.signal.aborted) break;
    }
    return undefined;
  } catch (err) {
    if (isNotFound(err)) throw dcNotFound(name, err);
    throw err;
  } finally {
    timer.dispose();
  }
}
