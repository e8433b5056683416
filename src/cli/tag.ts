/**
 * `dcctl tag <source> <stream>:<tag>...` (oc tag, reduced): points ImageStream tags at an image
 * by writing the streams' SPEC tags (creating streams that do not exist); the controller then
 * records the image in the tag's status history, which fires ImageChange triggers.
 *
 * Source kinds (`--source`): `docker` (a pull spec), `istag` (`[ns/]stream:tag`) or `isimage`
 * (`[ns/]stream@sha256:…`). Without `--source` a source shaped like an ImageStreamTag/Image
 * whose stream exists is taken as one; anything else is a pull spec (oc guesses the same way).
 */
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { Argv } from 'yargs';
import { isNotFound } from '../controller/errors.js';
import type { ImageStreamClient } from '../image/ports.js';
import { parseImageStreamImageName, parseImageStreamTagName } from '../image/resolve.js';
import { tagIntoStream } from '../image/tag.js';
import { CliError } from './errors.js';
import type { GlobalOptions } from './options.js';
import type { OutputStreams } from './output.js';

export type TagSourceKind = 'docker' | 'istag' | 'isimage';

export interface TagOptions {
  readonly source: string;
  readonly targets: readonly string[];
  readonly sourceKind?: TagSourceKind;
  readonly referencePolicy?: 'source' | 'local';
}

/** `[ns/]stream:tag` with tag defaulting to `latest` (oc's destination syntax). */
export function parseTagTarget(target: string, namespace: string): { namespace: string; stream: string; tag: string } {
  const slash = target.indexOf('/');
  const ns = slash >= 0 ? target.slice(0, slash) : namespace;
  const rest = slash >= 0 ? target.slice(slash + 1) : target;
  const withTag = rest.includes(':') ? rest : `${rest}:latest`;
  const parsed = parseImageStreamTagName(withTag);
  if (!parsed || !ns || rest.includes('/') || rest.includes('@')) {
    throw new CliError(`invalid destination "${target}": expected [namespace/]<stream>:<tag>`);
  }
  return { namespace: ns, ...parsed };
}

/** The `from` of an ImageStream-shaped source, or undefined when `source` has no such shape. */
function streamSource(source: string, namespace: string, kind: 'istag' | 'isimage'): (V1ObjectReference & { stream: string }) | undefined {
  const slash = source.indexOf('/');
  if (source.indexOf('/', slash + 1) >= 0 && slash >= 0) return undefined;
  const ns = slash >= 0 ? source.slice(0, slash) : namespace;
  const rest = slash >= 0 ? source.slice(slash + 1) : source;
  const parsed = kind === 'istag' ? parseImageStreamTagName(rest) : parseImageStreamImageName(rest);
  if (!parsed || !ns) return undefined;
  return { kind: kind === 'istag' ? 'ImageStreamTag' : 'ImageStreamImage', name: rest, namespace: ns, stream: parsed.stream };
}

/** Decides the `from` reference of `source`. */
export async function resolveTagSource(client: ImageStreamClient, namespace: string, opts: TagOptions): Promise<V1ObjectReference> {
  const source = opts.source.trim();
  if (!source) throw new CliError('a source image is required');
  const docker: V1ObjectReference = { kind: 'DockerImage', name: source };
  if (opts.sourceKind === 'docker') return docker;
  if (opts.sourceKind) {
    const from = streamSource(source, namespace, opts.sourceKind);
    if (!from) throw new CliError(`invalid source "${source}" for --source=${opts.sourceKind}`);
    const { stream: _stream, ...ref } = from;
    return ref;
  }
  const from = streamSource(source, namespace, source.includes('@') ? 'isimage' : 'istag');
  if (!from) return docker;
  try {
    await client.get(from.namespace ?? namespace, from.stream);
  } catch (err) {
    if (isNotFound(err)) return docker;
    throw err;
  }
  const { stream: _stream, ...ref } = from;
  return ref;
}

/** Runs the verb against `client`; returns the exit code. */
export async function tagImage(client: ImageStreamClient, namespace: string, opts: TagOptions, streams: OutputStreams): Promise<number> {
  if (opts.targets.length === 0) throw new CliError('at least one destination <stream>:<tag> is required');
  const targets = opts.targets.map((t) => parseTagTarget(t, namespace));
  const from = await resolveTagSource(client, namespace, opts);
  const policy = opts.referencePolicy === 'local' ? 'Local' : opts.referencePolicy === 'source' ? 'Source' : undefined;
  const shown = from.kind === 'DockerImage' ? from.name : from.namespace === namespace ? from.name : `${from.namespace}/${from.name}`;
  for (const t of targets) {
    await tagIntoStream(client, t.namespace, t.stream, t.tag, from, policy ? { referencePolicy: policy } : {});
    const dest = t.namespace === namespace ? `${t.stream}:${t.tag}` : `${t.namespace}/${t.stream}:${t.tag}`;
    streams.out.write(`Tag ${dest} set to ${shown}.\n`);
  }
  return 0;
}

/** Arguments of the verb as yargs parses them. */
export interface TagArgs extends GlobalOptions {
  source: string;
  targets: string[];
  sourceKind?: TagSourceKind;
  referencePolicy?: 'source' | 'local';
}

/** yargs builder of `tag <source> <targets..>` (registered by index.ts). */
export const tagBuilder = <T>(y: Argv<T>) => y
  .positional('source', { type: 'string', demandOption: true, describe: 'A pull spec, [ns/]stream:tag or [ns/]stream@sha256:...' })
  .positional('targets', { type: 'string', array: true, demandOption: true, describe: '[ns/]stream:tag destinations' })
  .option('source-kind', { alias: 'source-type', type: 'string', choices: ['docker', 'istag', 'isimage'] as const, describe: 'What the source is (default: guessed)' })
  .option('reference-policy', { type: 'string', choices: ['source', 'local'] as const, describe: 'referencePolicy of the destination tags' });

/** Builds the real client from the connection flags and runs the verb. */
export async function runTag(global: GlobalOptions, opts: TagOptions, streams: OutputStreams): Promise<number> {
  const { loadKubeConfig, currentNamespace } = await import('../kube/client.js');
  const { makeClients } = await import('../kube/clients.js');
  const { KubeImageStreamClient } = await import('../kube/imagestreams.js');
  const kc = loadKubeConfig({ kubeconfig: global.kubeconfig, context: global.context });
  const clients = makeClients(kc, { fieldManager: 'dcctl', userAgent: 'dcctl' });
  const namespace = global.namespace || currentNamespace(kc);
  return tagImage(new KubeImageStreamClient(clients.customObjects, 'dcctl'), namespace, opts, streams);
}
