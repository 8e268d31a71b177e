/**
 * Slow start of Exporter creates (SPEC §3.5), per ExporterSet key and across passes: a burst starts at
 * one, each clean batch lets the next be twice as large (up to `--max-burst`), and a failed batch
 * starts over at one. A quota or admission problem thus costs one failed request, not fifty; and since
 * the window outlives the pass, the next pass of a scale-up (which a pass's own create events bring)
 * goes on at the size reached instead of climbing 1, 2, 4, … again.
 *
 * The window is dropped when the burst is over (no create planned and none in flight) and when the set
 * is forgotten, so a set that scales up again hours later starts at one.
 */
import type { BatchWindow } from './slow-start-batch';

export class SlowStart {
  private readonly windows = new Map<string, number>();

  /** The window of the set `key` as one pass's create batches use it. */
  window(key: string, maxBurst: number): BatchWindow {
    return {
      size: (wanted) => this.batchSize(key, wanted, maxBurst),
      succeeded: (sent) => this.succeeded(key, sent, maxBurst),
      failed: () => this.failed(key),
    };
  }

  /** How many of `wanted` creates the set `key` may send in this pass's batch. */
  batchSize(key: string, wanted: number, maxBurst: number): number {
    return Math.max(0, Math.min(wanted, maxBurst, this.windows.get(key) ?? 1));
  }

  /** A batch of `sent` creates all landed: the next may be twice as large (never smaller than now). */
  succeeded(key: string, sent: number, maxBurst: number): void {
    const window = this.windows.get(key) ?? 1;
    this.windows.set(key, Math.max(1, Math.min(maxBurst, Math.max(window, 2 * sent))));
  }

  /** A create of the batch failed: start over at one. */
  failed(key: string): void {
    this.windows.delete(key);
  }

  /** The current window of `key` (1 when it has none). */
  windowOf(key: string): number {
    return this.windows.get(key) ?? 1;
  }

  /** The burst is over or the set is gone. */
  forget(key: string): void {
    this.windows.delete(key);
  }
}
