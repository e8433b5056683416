/**
 * One reconciliation of one DeploymentConfig: OpenShift's `DeploymentConfigController.Handle`
 * (§4.2 steps 1–12), plus this project's instantiate requests and the WaitingForImages condition.
 */
import type { V1ReplicationController } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { ConditionReason, ConditionType } from '../apis/constants.js';
import type { DeploymentConfig, InstantiateRequest } from '../apis/deploymentconfig.js';
import { DecodeError, decodeDeploymentConfig } from '../apis/encoded.js';
import { isAlreadyExists, RetriableError } from '../controller/errors.js';
import type {
  Clock, DeploymentConfigClient, EventRecorder, Lister, ReplicationControllerClient,
} from '../controller/ports.js';
import {
  applyDefaults, byVersionDesc, hasEmptyImage, hasTriggers, isTerminal, labelFor, latestDeploymentInfo, MaxVersion, versionOf,
} from '../apps/index.js';
import { errorMessage } from '../util/error-message.js';
import { splitKey } from '../util/keys.js';
import { cancelRunningRollouts } from './cancel.js';
import { RcControllerRefManager } from './claim.js';
import { cleanupOldDeployments } from './cleanup.js';
import { newCondition, waitingForImagesCondition } from './conditions.js';
import { makeDeployment } from './make-deployment.js';
import { reconcileDeployments } from './reconcile.js';
import { gatedTagResolver, type ImageTagResolver } from '../image/resolve.js';
import { allowAllCrossNamespace, type CrossNamespaceGate } from '../image/cross-namespace.js';
import { resolveForInstantiate } from '../image/triggers.js';
import { updateStatus } from './status.js';
import {
  decideInstantiate, instantiateAck, pendingInstantiateRequest, recordedDetails, triggerActivated,
  type InstantiateDecision, type ParsedInstantiateRequest,
} from './triggers.js';


export interface DeploymentConfigSyncDeps {
  dcLister: Lister<DeploymentConfig>;
  rcLister: Lister<V1ReplicationController>;
  dcClient: DeploymentConfigClient;
  rcClient: ReplicationControllerClient;
  recorder: EventRecorder;
  clock: Clock;
  log?: Logger;
  /**
   * Resolves ImageStreamTags for instantiate requests with `latest` (§7.3 step 2). Undefined when
   * the image trigger controller (and its ImageStream cache) is disabled: nothing is resolved.
   */
  resolveImageTag?: ImageTagResolver;
  /** References to another namespace's images (docs/image-triggers.md); default: all followed. */
  crossNamespace?: CrossNamespaceGate;
  /**
   * The RCs a claim of `dc` can concern (those labelled for it and those it controls), from an
   * index; undefined: every RC of the namespace (`rcLister.list`), which the claim filters. The
   * index keeps a sync from scanning all RCs of a namespace with many DCs.
   */
  rcsForDc?: (dc: DeploymentConfig) => V1ReplicationController[];
  /** Told about the status a sync wrote as its last act (status.ts `updateStatus`), see SettledStatusWrites. */
  onStatusWritten?: (written: DeploymentConfig) => void;
}

/**
 * Reconciles the DC named by `key` (`namespace/name`). A DC missing from the cache was deleted:
 * nothing to do (garbage collection removes its RCs). Throws FatalError (never retry),
 * RetriableError or ApiError (retry with backoff).
 */
export async function syncDeploymentConfig(deps: DeploymentConfigSyncDeps, key: string): Promise<void> {
  const { namespace, name } = splitKey(key);
  const cached = deps.dcLister.get(namespace, name);
  if (!cached) return;
  const bumped = await handle(deps, applyDefaults(cached));
  // §4.2 step 9: when a rollout in progress must be cancelled first (or an instantiate request
  // triggered), the version bump is stored alone (a crash can only leave a version without its
  // RC, which the next sync creates); the RC for it is then created by this same sync, from the
  // DC as just written, instead of by the sync the bump's own watch event would cause: that
  // sync would read this same DC (a concurrent writer makes the bump conflict instead) and
  // decide the same, one trip through a busy queue later. Once only: never a loop.
  if (bumped) await handle(deps, applyDefaults(bumped));
}

/** Returns the DC as written when the sync stored a latestVersion bump (and stopped there). */
async function handle(deps: DeploymentConfigSyncDeps, dc: DeploymentConfig): Promise<DeploymentConfig | undefined> {
  const log = deps.log?.child({ dc: labelFor(dc) });
  const latestVersion = dc.status?.latestVersion ?? 0;
  const request = pendingInstantiateRequest(dc);

  // 1. Nothing to reconcile until someone instantiates (a pending request is such an instantiate).
  if (latestVersion === 0 && !hasTriggers(dc) && !request) {
    await updateStatus(deps, dc, [], true);
    return;
  }

  // 2. Claim every RC of the namespace matching our label.
  const claims = new RcControllerRefManager(dc, deps.rcClient, deps.dcClient);
  const existing = await claims.claim(deps.rcsForDc ? deps.rcsForDc(dc) : deps.rcLister.list(dc.metadata.namespace));

  // 3. Being deleted: report, and let the garbage collector do the rest.
  if (dc.metadata.deletionTimestamp) {
    await updateStatus(deps, dc, existing, true);
    return;
  }

  // 4. Catch-up: the newest RC of this DC is newer than latestVersion. A DC re-created over
  // orphaned RCs resumes at the newest adopted RC, and a rollout whose RC was created but whose
  // bump was never stored (step 9 creates the RC first) is recorded with the cause its RC
  // carries. OpenShift steps latestVersion up by one per sync; one write straight to that
  // version ends in the same state. The version comes from the RC's immutable name (versionOf),
  // so an annotation written by someone else can neither move latestVersion nor start a write
  // loop; an RC whose annotation disagrees is reported by the status (ReplicaFailure) instead.
  // Before the instantiate request and the pause: both decide on the version that exists.
  const newest = existing.length > 0 ? byVersionDesc(existing)[0] : undefined;
  if (newest && versionOf(newest) > latestVersion) {
    const copy = structuredClone(dc);
    const version = versionOf(newest);
    const details = recordedDetails(newest, version);
    copy.status = { ...(copy.status ?? {}), latestVersion: version, ...(details ? { details } : {}) };
    log?.info({ from: latestVersion, to: version, rc: newest.metadata?.name }, 'latestVersion resumes at the newest replication controller');
    await deps.dcClient.updateStatus(copy);
    return;
  }

  // 6. The newest RC is the latest when its version is latestVersion.
  const { latestExists, candidate } = latestDeploymentInfo(dc, existing);

  if (request) {
    const handled = await handleInstantiate(deps, dc, request, latestExists, candidate);
    if (handled) return handled === true ? undefined : handled;
  }

  // 5. Paused: only history cleanup and status.
  if (dc.spec.paused) {
    try {
      await cleanupOldDeployments(deps, dc, existing);
    } catch (err) {
      deps.recorder.event(dc, 'Warning', 'DeploymentCleanupFailed', `Couldn't clean up deployments: ${errorMessage(err)}`);
    }
    await updateStatus(deps, dc, existing, true);
    return;
  }

  // 7. The RC for latestVersion does not exist yet: older rollouts must finish first.
  if (!latestExists) {
    await cancelRunningRollouts({ ...deps, claims }, dc, existing);
  }

  // 8. Never deploy with invalid or unresolved images.
  if (hasEmptyImage(dc)) {
    await updateStatus(deps, dc, existing, true, latestExists ? [] : [waitingForImagesCondition(dc, deps.clock.now())]);
    return;
  }

  // 9. Triggers.
  const copy = structuredClone(dc);
  let decision;
  try {
    decision = triggerActivated(copy, latestExists, latestExists ? candidate : undefined);
  } catch (err) {
    if (err instanceof DecodeError && candidate) {
      // Surface it where users look (events, conditions), then keep retrying: someone may fix
      // the annotation, and every other DC keeps being served meanwhile.
      const message = `replication controller "${candidate.metadata?.name}" cannot be read: ${err.message}`;
      deps.recorder.event(dc, 'Warning', ConditionReason.InvalidReplicationController, message);
      await updateStatus(deps, dc, existing, false, [
        newCondition(ConditionType.ReplicaFailure, 'True', ConditionReason.InvalidReplicationController, message, deps.clock.now()),
      ]);
    }
    throw new RetriableError(`triggerActivated failed: ${errorMessage(err)}`, { cause: err });
  }
  if (decision.skip) {
    await updateStatus(deps, copy, existing, true, [waitingForImagesCondition(copy, deps.clock.now())]);
    return;
  }
  if (decision.trigger && latestVersion >= MaxVersion) {
    // Reached only through an RC named <dc>-2147483647 (step 4 resumes at it) or a forged
    // status: report it once and wait, instead of creating an RC whose name is no version.
    const message = versionsExhausted(latestVersion);
    const current = dc.status?.conditions?.find((c) => c.type === ConditionType.Progressing);
    if (current?.message !== message) deps.recorder.event(dc, 'Warning', 'DeploymentCreationFailed', `Couldn't deploy version ${latestVersion + 1}: ${message}`);
    await updateStatus(deps, dc, existing, true, [
      newCondition(ConditionType.Progressing, 'False', ConditionReason.ReplicationControllerCreateError, message, deps.clock.now()),
    ]);
    return;
  }
  if (decision.trigger) {
    copy.status = { ...(copy.status ?? {}), details: decision.details, latestVersion: latestVersion + 1 };
    log?.debug({ latestVersion: latestVersion + 1, cause: decision.details?.message }, 'triggered a new rollout');
    // A rollout still in progress must be cancelled before the new RC exists (step 7): store the
    // bump alone, as OpenShift does, and let the next pass cancel and create. Otherwise the RC is
    // created from the bumped DC straight away and the bump is stored with the RC's own status
    // write: one write fewer on the path from a DC write to its RC. A crash in between leaves an
    // RC newer than latestVersion, which step 4 records with the cause encoded in the RC.
    if (existing.some((rc) => !isTerminal(rc))) return deps.dcClient.updateStatus(copy);
    await createDeployment(deps, copy, existing, claims);
    return undefined;
  }

  // 10. The latest RC exists: never compete with a running deployer; otherwise reconcile replicas.
  if (latestExists) {
    if (!isTerminal(candidate!)) {
      await updateStatus(deps, dc, existing, false);
      return;
    }
    await reconcileDeployments({ ...deps, claims }, dc, existing);
    return;
  }

  // 11. Create the RC for latestVersion.
  await createDeployment(deps, dc, existing, claims);
  return undefined;
}

async function createDeployment(
  deps: DeploymentConfigSyncDeps, dc: DeploymentConfig, existing: V1ReplicationController[], claims: RcControllerRefManager,
): Promise<void> {
  const version = dc.status?.latestVersion ?? 0;
  const rc = makeDeployment(dc);
  const ns = dc.metadata.namespace ?? '';
  const rcName = rc.metadata?.name ?? '';
  let created: V1ReplicationController;
  try {
    created = await deps.rcClient.create(ns, rc);
  } catch (createErr) {
    let err: unknown = createErr;
    if (isAlreadyExists(createErr)) {
      // §4.6: the cache may be stale, or an orphan with our name may be waiting to be adopted.
      let live: V1ReplicationController;
      try {
        live = await deps.rcClient.get(ns, rcName);
      } catch (getErr) {
        throw new RetriableError(
          `error while deploymentConfigController getting the replication controller ${ns}/${rcName}: ${errorMessage(getErr)}`,
          { cause: getErr },
        );
      }
      let ours = false;
      let claimErr: unknown;
      try {
        ours = await claims.claimOne(live);
      } catch (e) {
        claimErr = e;
      }
      if (ours) throw new RetriableError(`caches for RC ${ns}/${rcName} are stale, waiting to catch up`);
      err = new RetriableError(
        `deployment ${ns}/${rcName} already exists and it couldn't be adopted${claimErr ? `: ${errorMessage(claimErr)}` : ''}`,
        { cause: claimErr ?? createErr },
      );
    }
    deps.recorder.event(dc, 'Warning', 'DeploymentCreationFailed', `Couldn't deploy version ${version}: ${errorMessage(err)}`);
    const cond = newCondition(ConditionType.Progressing, 'False', ConditionReason.ReplicationControllerCreateError, errorMessage(err), deps.clock.now());
    try {
      await updateStatus(deps, dc, existing, true, [cond]);
    } catch (statusErr) {
      deps.log?.debug({ err: statusErr }, 'best-effort status update after a failed RC creation failed');
    }
    throw new RetriableError(`couldn't create deployment for deployment config ${labelFor(dc)}: ${errorMessage(err)}`, { cause: err });
  }

  const message = `Created new replication controller "${created.metadata?.name ?? rcName}" for version ${version}`;
  deps.recorder.event(dc, 'Normal', 'DeploymentCreated', message);
  const all = [...existing, created];
  try {
    await cleanupOldDeployments(deps, dc, all);
  } catch (err) {
    deps.recorder.event(dc, 'Warning', 'DeploymentCleanupFailed', `Couldn't clean up deployments: ${errorMessage(err)}`);
  }
  await updateStatus(deps, dc, all, true, [
    newCondition(ConditionType.Progressing, 'True', ConditionReason.NewReplicationControllerCreated, message, deps.clock.now()),
  ]);
}

/**
 * Handles an unacknowledged instantiate request. The acknowledgement is written in the same
 * status update as the latestVersion bump it causes, so a crash can neither lose the request nor
 * roll it out twice. Returns false when the request must wait: latestVersion > 0 but its RC does
 * not exist yet (OpenShift's instantiate would fail with NotFound then); the normal sync proceeds
 * and creates it, and the request is decided on a later sync. Returns the DC as written when the
 * request triggered a new version (the caller goes on to create its RC), true when it wrote
 * anything else.
 */
async function handleInstantiate(
  deps: DeploymentConfigSyncDeps, dc: DeploymentConfig, parsed: ParsedInstantiateRequest,
  latestExists: boolean, latest: V1ReplicationController | undefined,
): Promise<DeploymentConfig | boolean> {
  const latestVersion = dc.status?.latestVersion ?? 0;
  const id = parsed.ok ? parsed.request.id : parsed.id;
  let decision: InstantiateDecision;
  if (!parsed.ok) {
    decision = { outcome: 'Rejected', message: parsed.message };
  } else if (dc.spec.paused) {
    decision = decideInstantiate(dc, dc, parsed.request);
  } else {
    let decoded: DeploymentConfig = dc;
    if (latestVersion > 0) {
      if (!latestExists || !latest) return false;
      try {
        decoded = decodeDeploymentConfig(latest);
      } catch (err) {
        throw new RetriableError(`cannot instantiate ${labelFor(dc)}: ${errorMessage(err)}`, { cause: err });
      }
    }
    if (await resolveLatestImages(deps, dc, parsed.request)) return true;
    decision = decideInstantiate(dc, decoded, parsed.request);
  }
  if (decision.outcome === 'Triggered' && latestVersion >= MaxVersion) decision = { outcome: 'Rejected', message: versionsExhausted(latestVersion) };

  const copy = structuredClone(dc);
  const nextVersion = decision.outcome === 'Triggered' ? latestVersion + 1 : latestVersion;
  copy.status = {
    ...(copy.status ?? {}),
    latestVersion: nextVersion,
    lastInstantiateRequest: instantiateAck(id, decision, nextVersion, deps.clock.now()),
  };
  if (decision.outcome === 'Triggered') copy.status.details = decision.details;
  deps.log?.info({ id, outcome: decision.outcome, latestVersion: nextVersion }, 'handled instantiate request');
  const written = await deps.dcClient.updateStatus(copy);
  return decision.outcome === 'Triggered' ? written : true;
}

/**
 * Instantiate with `latest` (the default), §7.3 step 2: resolves the image triggers (all of them
 * when forced, as `rollout latest` does) into the containers and lastTriggeredImage with a spec
 * update of the STORED DC. Returns true when it wrote: the request is still unacknowledged, so
 * the sync that follows the update decides it on the updated DC (spec and status are separate
 * writes on a CRD, where OpenShift stores both at once).
 */
async function resolveLatestImages(deps: DeploymentConfigSyncDeps, dc: DeploymentConfig, request: InstantiateRequest): Promise<boolean> {
  if (!deps.resolveImageTag || request.latest === false) return false;
  const stored = deps.dcLister.get(dc.metadata.namespace ?? '', dc.metadata.name ?? '');
  if (!stored) return false;
  const resolve = gatedTagResolver(deps.resolveImageTag, stored, deps.crossNamespace ?? allowAllCrossNamespace,
    (reason) => deps.recorder.event(stored, 'Warning', 'CrossNamespaceImageRefused', reason));
  const updated = resolveForInstantiate(stored, resolve, {
    force: request.force === true,
    excludeImageChange: request.excludeTriggers?.includes('ImageChange') ?? false,
  });
  if (!updated) return false;
  deps.log?.info({ id: request.id }, 'instantiate: resolved image triggers into the template');
  await deps.dcClient.update(updated);
  return true;
}

const versionsExhausted = (latestVersion: number): string =>
  `latestVersion ${latestVersion} is the highest version a DeploymentConfig can reach (${MaxVersion}): no newer replication controller can be created`;
