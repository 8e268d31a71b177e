/**
 * The work queue's contract (controller-runtime semantics): de-duplication, delayed requeues where
 * the earlier time wins, per-key exponential backoff with a cap and `forget`, no key worked twice at
 * once under many workers, and a shutdown that waits for passes in flight. Time is a manual clock.
 */
import { describe, expect, it } from '@jest/globals';
import { WorkQueue, type ReconcileHandler } from '../../src/queue/work-queue';
import { manualClock, skewedClock, type ManualClock } from 'virtual-exporters-test-cluster';

/** Lets pending promise callbacks (worker hand-offs) run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function recorder(): { seen: string[]; handler: ReconcileHandler } {
  const seen: string[] = [];
  return { seen, handler: (key) => void seen.push(key) };
}

function queueOn(clock: ManualClock, onError?: (key: string, error: unknown, ms: number) => void) {
  return new WorkQueue({ clock, onError });
}

describe('work queue › de-duplication', () => {
  it('queues a key once however often it is added while waiting', async () => {
    const queue = queueOn(manualClock());
    for (const key of ['ns/a', 'ns/a', 'ns/b', 'ns/a', 'ns/b']) queue.add(key);
    expect(queue.depth()).toBe(2);
    const { seen, handler } = recorder();
    void queue.run(1, handler);
    await flush();
    expect(seen).toEqual(['ns/a', 'ns/b']);
    expect(queue.depth()).toBe(0);
    await queue.shutdown();
  });

  it('queues a key added during its own pass again after the pass, and only once', async () => {
    const queue = queueOn(manualClock());
    const gate = deferred();
    const seen: string[] = [];
    void queue.run(4, async (key) => {
      seen.push(key);
      if (seen.length === 1) await gate.promise;
    });
    queue.add('ns/a');
    await flush();
    queue.add('ns/a');
    queue.add('ns/a');
    await flush();
    // The second pass waits for the first, even with idle workers.
    expect(seen).toEqual(['ns/a']);
    expect(queue.inFlight()).toBe(1);
    gate.resolve();
    await flush();
    expect(seen).toEqual(['ns/a', 'ns/a']);
    await queue.shutdown();
  });
});

describe('work queue › passes in flight', () => {
  it('says which keys are being worked and for how long, so a pass that never ends can be found', async () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    const gate = deferred();
    void queue.run(2, async (key) => {
      if (key === 'ns/stuck') await gate.promise;
    });
    queue.add('ns/stuck');
    queue.add('ns/quick');
    await flush();
    clock.advance(45_000);
    expect(queue.passesInFlight()).toEqual([{ key: 'ns/stuck', forMs: 45_000 }]);
    gate.resolve();
    await flush();
    expect(queue.passesInFlight()).toEqual([]);
    await queue.shutdown();
  });
});

describe('work queue › delayed requeue', () => {
  it('makes keys ready when their delay has passed, in time order', () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    queue.addAfter('ns/a', 100);
    queue.addAfter('ns/b', 50);
    queue.addAfter('ns/c', 200);
    expect([queue.depth(), queue.delayedCount()]).toEqual([0, 3]);
    clock.advance(49);
    expect(queue.depth()).toBe(0);
    clock.advance(1);
    expect([queue.depth(), queue.delayedCount()]).toEqual([1, 2]);
    clock.advance(50);
    expect(queue.depth()).toBe(2);
    clock.advance(100);
    expect([queue.depth(), queue.delayedCount()]).toEqual([3, 0]);
  });

  it('keeps the earlier time when a waiting key is delayed again', async () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    const { seen, handler } = recorder();
    void queue.run(1, handler);
    queue.addAfter('ns/later-first', 100);
    queue.addAfter('ns/later-first', 30); // earlier: replaces
    queue.addAfter('ns/earlier-first', 30);
    queue.addAfter('ns/earlier-first', 100); // later: ignored
    clock.advance(30);
    await flush();
    expect(seen.sort()).toEqual(['ns/earlier-first', 'ns/later-first']);
    clock.advance(100);
    await flush();
    expect(seen).toHaveLength(2);
    expect(clock.pendingTimers()).toBe(0);
    await queue.shutdown();
  });

  it('keeps a nearer requeue when the wall clock is stepped ahead between two delays', async () => {
    const base = manualClock();
    const clock = skewedClock(base);
    const queue = new WorkQueue({ clock });
    const { seen, handler } = recorder();
    void queue.run(1, handler);
    queue.addAfter('ns/a', 300_000); // a cooldown's end, 5 minutes away
    clock.setOffsetMs(31 * 60_000); // the machine's clock is set 31 minutes ahead
    queue.addAfter('ns/a', 2_000); // nearer: replaces, however the wall clock reads
    base.advance(2_000);
    await flush();
    expect(seen).toEqual(['ns/a']);
    await queue.shutdown();
  });

  it('treats a delay of zero or less as an immediate add', () => {
    const queue = queueOn(manualClock());
    queue.addAfter('ns/a', 0);
    queue.addAfter('ns/b', -5);
    expect(queue.depth()).toBe(2);
  });

  it('requeues a key after the requeueAfterMs its pass returned', async () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    const seen: string[] = [];
    void queue.run(1, (key) => {
      seen.push(key);
      return seen.length === 1 ? { requeueAfterMs: 1000 } : {};
    });
    queue.add('ns/a');
    await flush();
    clock.advance(999);
    await flush();
    expect(seen).toEqual(['ns/a']);
    clock.advance(1);
    await flush();
    expect(seen).toEqual(['ns/a', 'ns/a']);
    expect(queue.delayedCount()).toBe(0);
    await queue.shutdown();
  });
});

describe('work queue › backoff', () => {
  it('doubles from 5 ms per consecutive failure up to one minute, per key, until forgotten', () => {
    const queue = queueOn(manualClock());
    const delays = Array.from({ length: 18 }, () => queue.addRateLimited('ns/a'));
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(delays[13]).toBe(5 * 2 ** 13); // 40 960 ms, still below the cap
    // A refusal fixed after a long while is retried within a minute, not after 16 minutes.
    expect(delays.slice(14)).toEqual([60_000, 60_000, 60_000, 60_000]);
    expect(queue.numRequeues('ns/a')).toBe(18);
    expect(queue.addRateLimited('ns/b')).toBe(5); // keys back off independently
    queue.forget('ns/a');
    expect(queue.numRequeues('ns/a')).toBe(0);
    expect(queue.addRateLimited('ns/a')).toBe(5);
  });

  it('retries a failing pass after its backoff, reports it, and forgets the key once it succeeds', async () => {
    const clock = manualClock();
    const errors: [string, string, number][] = [];
    const queue = queueOn(clock, (key, error, ms) => errors.push([key, (error as Error).message, ms]));
    let attempts = 0;
    void queue.run(2, () => {
      attempts++;
      if (attempts <= 3) throw new Error(`boom ${attempts}`);
    });
    queue.add('ns/a');
    await flush();
    expect(attempts).toBe(1);
    clock.advance(4);
    await flush();
    expect(attempts).toBe(1); // not before 5 ms
    clock.advance(1);
    await flush();
    clock.advance(10);
    await flush();
    clock.advance(20);
    await flush();
    expect(attempts).toBe(4);
    expect(errors).toEqual([
      ['ns/a', 'boom 1', 5],
      ['ns/a', 'boom 2', 10],
      ['ns/a', 'boom 3', 20],
    ]);
    expect(queue.numRequeues('ns/a')).toBe(0);
    await queue.shutdown();
  });
});

describe('work queue › workers', () => {
  it('never works one key in two workers at once, and loses no add made during a pass', async () => {
    const queue = queueOn(manualClock());
    const active = new Set<string>();
    const passes = new Map<string, number>();
    const addedDuring = new Map<string, number>();
    let overlaps = 0;
    let maxParallel = 0;
    const keys = ['ns/a', 'ns/b', 'ns/c'];
    void queue.run(8, async (key) => {
      if (active.has(key)) overlaps++;
      active.add(key);
      maxParallel = Math.max(maxParallel, active.size);
      passes.set(key, (passes.get(key) ?? 0) + 1);
      // Re-add some keys while they are being worked; each such add must cause one more pass.
      if ((passes.get(key) ?? 0) <= 3) {
        queue.add(key);
        addedDuring.set(key, (addedDuring.get(key) ?? 0) + 1);
      }
      await flush();
      active.delete(key);
    });
    for (let round = 0; round < 5; round++) for (const key of keys) queue.add(key);
    for (let i = 0; i < 20; i++) await flush();
    expect(overlaps).toBe(0);
    expect(maxParallel).toBe(keys.length); // different keys do run in parallel
    for (const key of keys) expect(passes.get(key)).toBe(4); // the first pass + 3 re-adds
    await queue.shutdown();
  });

  it('rejects a worker count that is not a positive integer', () => {
    const queue = queueOn(manualClock());
    expect(() => queue.run(0, () => undefined)).toThrow('workers must be a positive integer (got 0)');
    expect(() => queue.run(1.5, () => undefined)).toThrow('workers must be a positive integer (got 1.5)');
  });
});

describe('work queue › shutdown', () => {
  it('waits for passes in flight, drops queued and delayed keys, and ignores later adds', async () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    const gate = deferred();
    const seen: string[] = [];
    const running = queue.run(1, async (key) => {
      seen.push(key);
      await gate.promise;
    });
    queue.add('ns/in-flight');
    queue.add('ns/queued');
    queue.addAfter('ns/delayed', 1000);
    await flush();
    let stopped = false;
    const stopping = queue.shutdown().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false); // the pass in flight is still running
    expect(clock.pendingTimers()).toBe(0);
    queue.add('ns/late');
    expect(queue.depth()).toBe(0);
    gate.resolve();
    await stopping;
    await running;
    expect(seen).toEqual(['ns/in-flight']);
    expect(() => queue.run(1, () => undefined)).toThrow('the work queue is already running');
  });

  it('does not requeue what a pass asks for when it ends after shutdown', async () => {
    const clock = manualClock();
    const queue = queueOn(clock);
    const gate = deferred();
    void queue.run(1, async () => {
      await gate.promise;
      return { requeueAfterMs: 10 };
    });
    queue.add('ns/a');
    await flush();
    const stopping = queue.shutdown();
    gate.resolve();
    await stopping;
    expect([queue.delayedCount(), clock.pendingTimers(), queue.inFlight()]).toEqual([0, 0, 0]);
  });
});
