/**
 * Which DCs reference which ImageStreams through their ImageChange triggers, so a stream change
 * requeues exactly the DCs that depend on it (OpenShift's trigger cache / `ImageStreamTag` index).
 * The same index, keyed by stream, records which streams' spec tags point into which streams.
 */

/** DC key (`ns/name`) ↔ referenced stream keys (`ns/stream`). Not thread-safe; JS needs none. */
export class ImageStreamTriggerIndex {
  private readonly streamsByDc = new Map<string, Set<string>>();
  private readonly dcsByStream = new Map<string, Set<string>>();

  /** Records that `dcKey` references exactly `streamKeys` (replacing what it referenced before). */
  set(dcKey: string, streamKeys: readonly string[]): void {
    this.remove(dcKey);
    if (streamKeys.length === 0) return;
    const streams = new Set(streamKeys);
    this.streamsByDc.set(dcKey, streams);
    for (const s of streams) {
      let dcs = this.dcsByStream.get(s);
      if (!dcs) this.dcsByStream.set(s, (dcs = new Set()));
      dcs.add(dcKey);
    }
  }

  /** Forgets `dcKey` (deleted DC). */
  remove(dcKey: string): void {
    const streams = this.streamsByDc.get(dcKey);
    if (!streams) return;
    this.streamsByDc.delete(dcKey);
    for (const s of streams) {
      const dcs = this.dcsByStream.get(s);
      dcs?.delete(dcKey);
      if (dcs?.size === 0) this.dcsByStream.delete(s);
    }
  }

  /** Keys of the DCs referencing stream `streamKey`, sorted. */
  dcsFor(streamKey: string): string[] {
    return [...(this.dcsByStream.get(streamKey) ?? [])].sort();
  }
}
