/**
 * Which Warning events of an RC are repeated on its DC when a rollout ends (OpenShift's
 * `RecordConfigWarnings`, in the deployer pod and in pod-less rollouts). Pure: no I/O.
 *
 * Events are written by many (the RC manager, admission, and anyone allowed to create events in
 * the namespace), so their number must not decide how many writes a rollout makes: OpenShift
 * repeats every one; here at most MaxRepeatedWarnings per RC, the burst client-go's event spam
 * filter lets through for one object (docs/design.md §10.3).
 */
import type { CoreV1Event, V1ReplicationController } from '@kubernetes/client-node';

export const MaxRepeatedWarnings = 25;

export interface RepeatedWarnings {
  /** The first MaxRepeatedWarnings Warning events about the RC, in the order given. */
  readonly repeat: CoreV1Event[];
  /** How many more there were. */
  readonly skipped: number;
}

/**
 * The Warning events of `events` about `rc` itself: its kind, name and namespace, and its uid when
 * it has one (an event about an earlier RC of the same name is not this rollout's).
 */
export function repeatedWarnings(events: readonly CoreV1Event[], rc: V1ReplicationController, limit = MaxRepeatedWarnings): RepeatedWarnings {
  const name = rc.metadata?.name;
  const namespace = rc.metadata?.namespace;
  const uid = rc.metadata?.uid;
  const repeat: CoreV1Event[] = [];
  let skipped = 0;
  for (const e of events) {
    const about = e.involvedObject;
    if (e.type !== 'Warning' || about?.name !== name || (about?.namespace ?? namespace) !== namespace) continue;
    if (about?.kind !== undefined && about.kind !== 'ReplicationController') continue;
    if (uid && about?.uid !== uid) continue;
    if (repeat.length < limit) repeat.push(e);
    else skipped++;
  }
  return { repeat, skipped };
}
