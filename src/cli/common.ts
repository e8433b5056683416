/** Reads shared by several verbs, with oc's error texts. */
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isNotFound } from '../controller/errors.js';
import { dcNotFound } from './errors.js';
import type { CliContext } from './ports.js';

/** GET the DC; NotFound is rethrown with the API server's exact text. */
export async function getDc(ctx: CliContext, name: string): Promise<DeploymentConfig> {
  try {
    return await ctx.dcs.get(ctx.namespace, name);
  } catch (err) {
    if (isNotFound(err)) throw dcNotFound(name, err);
    throw err;
  }
}

/** GET an RC, undefined when it does not exist. */
export async function findRc(ctx: CliContext, name: string): Promise<V1ReplicationController | undefined> {
  try {
    return await ctx.rcs.get(ctx.namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
