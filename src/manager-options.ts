/**
 * What `dcctl controller` is configured with, beside src/manager.ts that it configures. Kept in
 * its own module without runtime imports so the CLI can parse flags into it without loading the
 * controllers.
 */
import type { V1EnvVar, V1Toleration } from '@kubernetes/client-node';

/** Flags of `dcctl controller`. */
export interface ManagerOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Watch scope; undefined means all namespaces. */
  readonly namespace?: string;
  /** Group that stores DCs: apps.openshift.io (CRD mode) or apps.dcctl.io (API mode, docs/apiserver.md). */
  readonly dcGroup?: string;
  /** Concurrent syncs per controller. */
  readonly workers: number;
  readonly deployerImage: string;
  /** Command of deployer pods; undefined leaves the image ENTRYPOINT in charge. */
  readonly deployerCommand?: string[];
  readonly deployerServiceAccount: string;
  /** Added to every deployer container unless the strategy's customParams set the name. */
  readonly deployerEnvironment: readonly V1EnvVar[];
  /** Added to the node selector of deployer pods; the RC template's keys win. */
  readonly deployerNodeSelector?: Readonly<Record<string, string>>;
  /** Added to the tolerations of deployer pods after the template's. */
  readonly deployerTolerations?: readonly V1Toleration[];
  /** Create the deployer service account and role binding in a namespace on first use. */
  readonly manageDeployerAccess: boolean;
  /** Who runs Rolling/Recreate rollouts of DCs without the deploy.dcctl.io/deployer annotation (default pod). */
  readonly defaultDeployer?: 'pod' | 'inline';
  readonly enableDcController: boolean;
  readonly enableDeployerController: boolean;
  /** Run the image trigger controller (needs the ImageStream CRD). */
  readonly enableImageTriggerController: boolean;
  readonly leaderElect: boolean;
  readonly leaderElectionNamespace?: string;
  readonly metricsBindAddress: string;
  /**
   * Address of the admission webhook that judges a DC's pod template as an RC's (docs/webhook.md);
   * `0` or undefined: not served.
   */
  readonly webhookBindAddress?: string;
  /** With webhookBindAddress: directory with tls.crt and tls.key, read again when they change. */
  readonly webhookCertDir?: string;
  /**
   * Image references to another namespace (docs/image-triggers.md "Cross-namespace references"):
   * `admission` follows those admitted by the policy `crossNamespacePolicy` (default), `deny` none,
   * `allow` all.
   */
  readonly crossNamespaceImages?: CrossNamespaceMode;
  /** Name of the ValidatingAdmissionPolicy and its binding (deploy/image-policy.yaml). */
  readonly crossNamespacePolicy?: string;
  /** Serve /metrics over HTTPS with TokenReview/SubjectAccessReview (docs/operations.md). */
  readonly metricsSecure?: boolean;
  /** In secure mode: check the bearer token (default true). */
  readonly metricsAuth?: boolean;
  /** In secure mode: directory with tls.crt and tls.key (default: a self-signed certificate). */
  readonly metricsCertDir?: string;
  /** Seconds between informer resyncs (OpenShift's controllers: 600). */
  readonly resyncSeconds: number;
  /**
   * During a rollout, RC replica-count changes and the phase moving from New to Pending to Running
   * update the DC status at most once per this many seconds (design.md §4.1); 0: at every change.
   * Default DefaultStatusBatchSeconds.
   */
  readonly statusBatchSeconds?: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
}

/** `--cross-namespace-images`. */
export type CrossNamespaceMode = 'admission' | 'deny' | 'allow';
export const CrossNamespaceModes: readonly CrossNamespaceMode[] = ['admission', 'deny', 'allow'];
export const DefaultCrossNamespaceMode: CrossNamespaceMode = 'admission';
/** The name of the ValidatingAdmissionPolicy and its binding in deploy/image-policy.yaml. */
export const DefaultCrossNamespacePolicy = 'dcctl-cross-namespace-image-references';

export const DefaultDeployerImage = 'ghcr.io/deploymentconfig-controller/dcctl:latest';
export const DefaultResyncSeconds = 10 * 60;
export const DefaultStatusBatchSeconds = 2;

/** `--status-batch-period` in milliseconds (undefined: the default). */
export function statusBatchMs(seconds: number | undefined): number {
  const s = seconds ?? DefaultStatusBatchSeconds;
  if (!(Number.isFinite(s) && s >= 0 && s <= 60)) throw new Error(`invalid --status-batch-period ${s}: want seconds from 0 to 60`);
  return Math.round(s * 1000);
}

/** `--metrics-bind-address` (or `flag`): `[host]:port`; `0` or empty disables serving. */
export function parseBindAddress(addr: string, flag = '--metrics-bind-address'): { host?: string; port: number } | undefined {
  if (addr === '0' || addr === '') return undefined;
  const idx = addr.lastIndexOf(':');
  const port = Number.parseInt(idx >= 0 ? addr.slice(idx + 1) : addr, 10);
  // `[::1]:8080`: the brackets only delimit an IPv6 address; listen() takes it bare.
  const host = idx > 0 ? addr.slice(0, idx).replace(/^\[(.*)\]$/, '$1') : undefined;
  if (!Number.isInteger(port) || port <= 0) throw new Error(`invalid ${flag} "${addr}"`);
  return host ? { host, port } : { port };
}
