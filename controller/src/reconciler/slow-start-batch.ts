/**
 * Exporter creates in slow-start batches, in the shape of the ReplicaSet controller's
 * `slowStartBatch`: a batch as large as the set's window, the writes of a batch concurrently, and
 * after a clean batch the window doubles (slow-start.ts, up to `--max-burst`); the first batch with a
 * failure ends the pass's creates, so a quota or admission problem costs one failed request, not fifty.
 * Unlike the ReplicaSet controller's, the window outlives the pass: the next pass of a scale-up goes on
 * at the size reached instead of climbing 1, 2, 4, … again.
 */

/** One set's create window, as a pass's batches use it. */
export interface BatchWindow {
  /** How many of `wanted` creates the next batch may send. */
  size(wanted: number): number;
  /** A batch of `sent` creates all landed. */
  succeeded(sent: number): void;
  /** A create of the batch failed. */
  failed(): void;
}

/**
 * Sends `items` batch by batch; `send` resolves to a failure or undefined (it does not throw). Resolves
 * to the first failure of the failed batch, in the batch's order, or undefined when every item landed.
 */
export async function slowStartBatch<T, F>(
  items: readonly T[],
  window: BatchWindow,
  send: (item: T) => Promise<F | undefined>,
): Promise<F | undefined> {
  for (let offset = 0; offset < items.length;) {
    const batch = items.slice(offset, offset + window.size(items.length - offset));
    offset += batch.length;
    const failure = (await Promise.all(batch.map((item) => send(item)))).find(
      (result) => result !== undefined,
    );
    if (failure !== undefined) {
      window.failed();
      return failure;
    }
    window.succeeded(batch.length);
  }
  return undefined;
}
