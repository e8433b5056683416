/**
 * ControllerRefManager semantics for a DC and its RCs (§4.3): adopt matching orphans, release
 * owned RCs whose labels no longer match, ignore RCs controlled by someone else.
 */
import type { V1OwnerReference, V1ReplicationController } from '@kubernetes/client-node';
import { ApiVersion, Kind, Labels } from '../apis/constants.js';
import type { DeploymentConfig } from '../apis/deploymentconfig.js';
import { isInvalid, isNotFound, RetriableError } from '../controller/errors.js';
import type { DeploymentConfigClient, ReplicationControllerClient } from '../controller/ports.js';
import { aggregateMessage } from '../util/error-message.js';

const controllerOf = (rc: V1ReplicationController): V1OwnerReference | undefined =>
  rc.metadata?.ownerReferences?.find((ref) => ref.controller === true);

/**
 * Claims RCs for one DC during one sync. `canAdopt` (an uncached GET of the DC) runs at most
 * once per manager, like the `sync.Once` in the Go version, and its error is remembered.
 */
export class RcControllerRefManager {
  private canAdoptResult?: Promise<void>;

  constructor(
    private readonly dc: DeploymentConfig,
    private readonly rcClient: ReplicationControllerClient,
    private readonly dcClient: DeploymentConfigClient,
  ) {}

  private get uid(): string {
    return this.dc.metadata.uid ?? '';
  }

  private matches(rc: V1ReplicationController): boolean {
    return rc.metadata?.labels?.[Labels.DeploymentConfig] === this.dc.metadata.name;
  }

  /** Fails when the DC in the API is gone, re-created (other uid) or being deleted. */
  private canAdopt(): Promise<void> {
    this.canAdoptResult ??= (async () => {
      const { namespace = '', name = '' } = this.dc.metadata;
      const fresh = await this.dcClient.get(namespace, name);
      if (fresh.metadata.uid !== this.uid) {
        throw new RetriableError(`original DeploymentConfig ${namespace}/${name} is gone: got uid ${fresh.metadata.uid ?? ''}, wanted ${this.uid}`);
      }
      if (fresh.metadata.deletionTimestamp) {
        throw new RetriableError(`${namespace}/${name} has just been deleted at ${String(fresh.metadata.deletionTimestamp)}`);
      }
    })();
    return this.canAdoptResult;
  }

  private async adopt(rc: V1ReplicationController): Promise<void> {
    await this.canAdopt();
    const patch = {
      metadata: {
        ownerReferences: [{
          apiVersion: ApiVersion, kind: Kind, name: this.dc.metadata.name, uid: this.uid,
          controller: true, blockOwnerDeletion: true,
        }],
        // The uid acts as a precondition: a re-created RC of the same name is never adopted.
        uid: rc.metadata?.uid,
      },
    };
    await this.rcClient.patch(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '', patch, 'strategic');
  }

  private async release(rc: V1ReplicationController): Promise<void> {
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: this.uid }], uid: rc.metadata?.uid } };
    try {
      await this.rcClient.patch(rc.metadata?.namespace ?? '', rc.metadata?.name ?? '', patch, 'strategic');
    } catch (err) {
      // Gone, or replaced by a new object (uid precondition): nothing of ours to release.
      if (isNotFound(err) || isInvalid(err)) return;
      throw err;
    }
  }

  /** `ClaimObject`: true when the RC is (now) ours. Errors are transient; callers requeue. */
  async claimOne(rc: V1ReplicationController): Promise<boolean> {
    const ref = controllerOf(rc);
    const dcDeleting = !!this.dc.metadata.deletionTimestamp;
    if (ref) {
      if (ref.uid !== this.uid) return false;
      if (this.matches(rc)) return true;
      if (dcDeleting) return false;
      try {
        await this.release(rc);
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
      return false;
    }
    if (dcDeleting || !this.matches(rc)) return false;
    if (rc.metadata?.deletionTimestamp) return false;
    if (this.dc.metadata.namespace && this.dc.metadata.namespace !== rc.metadata?.namespace) return false;
    try {
      await this.adopt(rc);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    return true;
  }

  /**
   * `ClaimReplicationControllers`: the RCs that are ours after adoption/release. Every RC is
   * tried; errors are aggregated into one RetriableError after the loop.
   */
  async claim(rcs: readonly V1ReplicationController[]): Promise<V1ReplicationController[]> {
    const claimed: V1ReplicationController[] = [];
    const errors: unknown[] = [];
    for (const rc of rcs) {
      try {
        if (await this.claimOne(rc)) claimed.push(rc);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) {
      throw new RetriableError(
        `error while deploymentConfigController claiming replication controllers: ${aggregateMessage(errors)}`,
        { cause: errors[0] },
      );
    }
    return claimed;
  }
}
