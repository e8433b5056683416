/**
 * Configuration of the deployer controller (OpenShift: `deployer.imageTemplateFormat`, the
 * `deployer` service account, and an extra-environment list that OpenShift leaves empty). Every
 * field has a `dcctl controller` flag (`--deployer-image`, `--deployer-command`,
 * `--deployer-service-account`, `--deployer-env`, `--deployer-node-selector`, `--deployer-toleration`).
 */
import type { V1EnvVar, V1Toleration } from '@kubernetes/client-node';
import type { DeployerMode } from '../apis/constants.js';

export interface DeployerControllerOptions {
  /** Image of the `deployment` container for Rolling/Recreate (unless `customParams.image`). */
  readonly deployerImage: string;
  /**
   * Command of the `deployment` container when `customParams.command` is empty. Undefined leaves
   * the image ENTRYPOINT in charge, as OpenShift does; this project's image runs `dcctl deploy`.
   */
  readonly deployerCommand?: readonly string[];
  /** Service account of deployer pods; default `deployer`. */
  readonly serviceAccount?: string;
  /**
   * Variables injected into every deployer container after `customParams.environment`, skipping
   * names already present and values over 128000 bytes.
   */
  readonly environment?: readonly V1EnvVar[];
  /**
   * Not OpenShift's: node selector entries added to every deployer pod. The RC template's node
   * selector is copied first and wins on a shared key, so OpenShift's "deployer runs where the
   * application runs" still holds; these only add constraints (e.g. keep deployers off spot nodes).
   */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** Not OpenShift's: tolerations appended after the template's (exact duplicates skipped). */
  readonly tolerations?: readonly V1Toleration[];
  /**
   * Not OpenShift's (`--default-deployer`): who runs Rolling and Recreate rollouts of DCs without
   * the `deploy.dcctl.io/deployer` annotation: `pod` (a deployer pod, default) or `inline` (this
   * controller, design.md §6.8).
   */
  readonly defaultDeployer?: DeployerMode;
}
