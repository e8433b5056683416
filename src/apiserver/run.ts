/**
 * `dcctl apiserver`: serves apps.openshift.io/v1 as an aggregated API server in front of the
 * storage group (docs/apiserver.md). Runs until SIGTERM/SIGINT, then stops accepting requests,
 * ends open watches and exits 0.
 */
import { readFileSync } from 'node:fs';
import { StorageGroup } from '../apis/storage.js';
import { loadKubeConfig } from '../kube/client.js';
import { makeRawTransport } from '../kube/raw.js';
import { makeLogger } from '../manager.js';
import { migrateStorage } from './migrate.js';
import { startFront } from './server.js';
import { UserStorage } from './storage.js';

export interface ApiServerOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly securePort: number;
  readonly bindAddress: string;
  readonly tlsCertFile: string;
  readonly tlsPrivateKeyFile: string;
  readonly storageGroup?: string;
  readonly instantiateTimeoutSeconds?: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
}

export async function runApiServer(opts: ApiServerOptions): Promise<number> {
  const log = makeLogger(opts.logLevel, opts.logFormat).child({ component: 'apiserver' });
  const kc = loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  const transport = await makeRawTransport(kc);
  const front = await startFront({
    cert: readFileSync(opts.tlsCertFile),
    key: readFileSync(opts.tlsPrivateKeyFile),
    storageGroup: opts.storageGroup ?? StorageGroup,
    transport,
    log,
    instantiateTimeoutMs: (opts.instantiateTimeoutSeconds ?? 30) * 1000,
  }, { port: opts.securePort, host: opts.bindAddress });
  log.info({ port: opts.securePort, storageGroup: opts.storageGroup ?? StorageGroup }, 'serving apps.openshift.io/v1');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  log.info('shutting down');
  await front.close();
  return 0;
}

export interface MigrateStorageCliOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly to: 'aggregated' | 'crd';
  readonly force: boolean;
  readonly timeoutSeconds: number;
}

/** `dcctl migrate-storage`: prints progress and a summary on stderr; 0 when done. */
export async function runMigrateStorage(opts: MigrateStorageCliOptions, err: { write(chunk: string): unknown }): Promise<number> {
  const kc = loadKubeConfig({ kubeconfig: opts.kubeconfig, context: opts.context });
  const rest = new UserStorage(await makeRawTransport(kc), StorageGroup, undefined);
  const report = await migrateStorage(rest, { to: opts.to, force: opts.force, switchTimeoutMs: opts.timeoutSeconds * 1000, log: (l) => err.write(`${l}\n`) });
  err.write(`migrated to ${opts.to}: ${report.copied} DC(s) copied (${report.alreadyCopied} already), ${report.orphaned} RC(s) orphaned during the move, ${report.reowned} re-owned, ${report.deletedSources} source object(s) retired, ${report.skipped} skipped (being deleted)\n`);
  return 0;
}
