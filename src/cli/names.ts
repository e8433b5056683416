/** Resource-argument parsing: `web`, `dc/web`, `deploymentconfig/web`, `dc web`, ... */
import { CliError } from './errors.js';

const dcTypeNames = new Set([
  'dc', 'deploymentconfig', 'deploymentconfigs',
  'deploymentconfig.apps.openshift.io', 'deploymentconfigs.apps.openshift.io',
  'deploymentconfig.v1.apps.openshift.io', 'deploymentconfigs.v1.apps.openshift.io',
]);

/** The name printer's prefix: `deploymentconfig.apps.openshift.io/<name>`. */
export const qualifiedName = (name: string): string => `deploymentconfig.apps.openshift.io/${name}`;

/**
 * Resolves a DC name from one or two positional arguments as kubectl's builder would for a single
 * resource type. Throws CliError for other types or malformed input.
 */
export function parseDcName(first: string | undefined, second?: string): string {
  if (!first) throw new CliError('a deployment config name is required');
  if (second !== undefined && second !== '') {
    if (first.includes('/')) throw new CliError(`there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'dcctl rollout latest dc/${second}')`);
    if (!dcTypeNames.has(first.toLowerCase())) throw new CliError(`expected deployment configuration, got ${first}`);
    return validName(second);
  }
  const slash = first.indexOf('/');
  if (slash < 0) return validName(first);
  const type = first.slice(0, slash).toLowerCase();
  if (!dcTypeNames.has(type)) throw new CliError(`expected deployment configuration, got ${first.slice(0, slash)}`);
  return validName(first.slice(slash + 1));
}

function validName(name: string): string {
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) throw new CliError(`invalid deployment config name "${name}"`);
  return name;
}
