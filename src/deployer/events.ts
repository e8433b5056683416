/**
 * Events created by the deployer process (oc `strategy/util/events.go`): created directly, with
 * no recorder or aggregation, on the DC decoded from the RC.
 */
import type { CoreV1Event, V1ReplicationController } from '@kubernetes/client-node';
import { Annotations } from '../apis/constants.js';
import { eventTarget } from '../apps/index.js';
import type { Clock, EventClient } from '../controller/ports.js';
import { errorMessage } from '../util/error-message.js';
import { rcName } from './util.js';

/** Creates the deployer's events; failures are reported on `errOut` and never thrown. */
export class DeployerEvents {
  private lastNanos = 0n;

  constructor(
    private readonly client: EventClient,
    private readonly clock: Clock,
    private readonly errOut: NodeJS.WritableStream,
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
   * `RecordConfigWarnings`: prints every Warning event of `rc` (`-->  <reason>: <rc> <message>`)
   * and re-creates it on the DC, so quota and admission failures of the RC manager surface on
   * the DC.
   */
  async recordConfigWarnings(rc: V1ReplicationController | undefined, out: NodeJS.WritableStream): Promise<void> {
    if (!rc) return;
    const name = rcName(rc);
    const namespace = rc.metadata?.namespace ?? '';
    const terms = [
      `involvedObject.kind=ReplicationController`,
      `involvedObject.name=${name}`,
      `involvedObject.namespace=${namespace}`,
      ...(rc.metadata?.uid ? [`involvedObject.uid=${rc.metadata.uid}`] : []),
    ];
    let events: CoreV1Event[];
    try {
      events = await this.client.list(namespace, terms.join(','));
    } catch (err) {
      out.write(`--> Error listing events for replication controller ${name}: ${errorMessage(err)}\n`);
      return;
    }
    for (const e of events) {
      if (e.type !== 'Warning') continue;
      out.write(`-->  ${e.reason ?? ''}: ${name} ${e.message ?? ''}\n`);
      await this.recordConfigEvent(rc, 'Warning', e.reason ?? '', e.message ?? '');
    }
  }
}
