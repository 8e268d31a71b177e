/**
 * A bound on API writes in flight (a counting semaphore): at most `capacity` tasks run at once, and
 * waiting tasks start in arrival order, urgent ones first. Writes of one kind concern different objects,
 * so sending them concurrently makes twenty deletes one round trip instead of twenty; the bound keeps
 * a large plan from opening hundreds of requests against the API server at once.
 */
export class Limiter {
  private running = 0;
  private readonly urgent: (() => void)[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly capacity: number) {}

  /** Runs `task` once a slot is free; `urgent` tasks get the next free slot before the others. */
  async run<T>(task: () => Promise<T>, urgent = false): Promise<T> {
    if (this.running >= this.capacity) {
      await new Promise<void>((resolve) => (urgent ? this.urgent : this.waiting).push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const wake = this.urgent.shift() ?? this.waiting.shift();
      if (wake) wake();
      else this.running -= 1;
    }
  }

  /** Runs `work` on every item within the bound, in order; resolves when all are done. */
  async forEach<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
    await Promise.all(items.map((item) => this.run(() => work(item))));
  }
}
