/**
 * Events created by the deployer process (oc `strategy/util/events.go`): created directly, with
 * no recorder or aggregation, on the DC decoded from the RC.
 */
import type { CoreV1Event, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import { eventTarget } from '../apps/index.js';
import { repeatedWarnings } from '../apps/rc-warnings.js';
import type { Clock, EventClient } from '../controller/ports.js';
import { RcWarningSelector, type RcWarnings } from './ports.js';
import { errorMessage } from '../util/error-message.js';
import { rcName } from './util.js';

/** Creates the deployer's events; failures are reported on `errOut` and never thrown. */
export class DeployerEvents {
  private lastNanos = 0n;

  constructor(
    private readonly client: EventClient,
    private readonly clock: Clock,
    private readonly errOut: NodeJS.WritableStream,
    /** The RC warnings collected since the run started; without them, one LIST at the end. */
    private readonly warnings?: RcWarnings,
  ) {}

  /**
   * `RecordConfigEvent`: an event on the DC encoded in `rc` (on the RC itself when it cannot be
   * decoded), named `<dc>.<hex unix nanoseconds>`, with `source.component` = the RC's
   * `openshift.io/deployer-pod.name` annotation.
   */
  async recordConfigEvent(rc: V1ReplicationController, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const ref = eventTarget(rc);
    const now = this.clock.now();
    // Go uses real nanoseconds; millisecond clocks would give two events of the same
    // millisecond the same name, so keep the value strictly increasing.
    let nanos = BigInt(now.getTime()) * 1_000_000n;
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    const namespace = ref.namespace ?? '';
    const event: CoreV1Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${ref.name ?? ''}.${nanos.toString(16)}`, namespace },
      involvedObject: ref,
      reason,
      message,
      source: { component: rc.metadata?.annotations?.[Annotations.DeployerPod] ?? '' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
    };
    try {
      await this.client.create(namespace, event);
    } catch (err) {
      this.errOut.write(`Could not create event ${reason} for ${namespace}/${ref.name ?? ''}: ${errorMessage(err)}\n`);
    }
  }

  /**
   * `RecordConfigWarnings` for each RC of `rcs` in turn: prints the Warning events of the RC
   * (`-->  <reason>: <rc> <message>`) and re-creates them on the DC, so quota and admission
   * failures of the RC manager surface on the DC; at most MaxRepeatedWarnings per RC, since
   * anyone who may create events can write them (src/apps/rc-warnings.ts). OpenShift lists every
   * event of each RC. Here the RC
   * Warning events of the namespace come from the watch opened when the run started (`warnings`,
   * design.md §6.2), so the ones raised during the rollout are repeated without reading every
   * event of the namespace; when that watch broke, from one LIST of the namespace's RC Warning
   * events (`type=Warning`), which serves `to` and `from` at once.
   */
  async recordConfigWarnings(rcs: readonly (V1ReplicationController | undefined)[], out: NodeJS.WritableStream): Promise<void> {
    const present = rcs.filter((rc): rc is V1ReplicationController => rc !== undefined);
    const first = present[0];
    if (!first) return;
    const namespace = first.metadata?.namespace ?? '';
    let events = this.warnings?.collected();
    if (events === undefined) {
      try {
        events = await this.client.list(namespace, RcWarningSelector);
      } catch (err) {
        for (const rc of present) out.write(`--> Error listing events for replication controller ${rcName(rc)}: ${errorMessage(err)}\n`);
        return;
      }
    }
    for (const rc of present) {
      const name = rcName(rc);
      const { repeat, skipped } = repeatedWarnings(events, rc);
      for (const e of repeat) {
        out.write(`-->  ${e.reason ?? ''}: ${name} ${e.message ?? ''}\n`);
        await this.recordConfigEvent(rc, 'Warning', e.reason ?? '', e.message ?? '');
      }
      if (skipped > 0) out.write(`--> ${skipped} more Warning events of ${name} not repeated on the DC\n`);
    }
  }
}
