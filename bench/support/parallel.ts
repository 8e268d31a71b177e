/** Runs `work` on every item with at most `limit` in flight; resolves when all are done (rejects on the first failure). */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
