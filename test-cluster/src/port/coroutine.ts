/**
 * One copy of the simulators' logic for both ports. A step that writes is a generator: it hands each
 * write's result to `wait` (`yield* wait(port.patch(...))`) and gets the written object back, or the
 * write's error thrown at that line, so `try`/`catch` reads as it would with `await`.
 *
 * `drive` runs such a step. While every value it waits for is already there — the in-process store
 * answers at once — the whole step runs synchronously inside `drive`, exactly as plain calls would:
 * no microtask turn, so the in-process simulators behave (and interleave with tests and the store's
 * watch deliveries) as they always did. The first Promise (an HTTP request) turns the rest of the
 * step asynchronous, and `drive` returns a Promise of its result.
 */
import type { Awaitable } from './cluster-port';

/** A step: yields what it waits for, receives it resolved, returns `T`. */
export type Step<T> = Generator<Awaitable<unknown>, T, unknown>;

export const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** Waits for `value` inside a step (`yield* wait(value)`): the value itself, or the Promise's result. */
export function* wait<T>(value: Awaitable<T>): Step<T> {
  return (yield value) as T;
}

/** Runs `step`: synchronously while nothing it waits for is a Promise, else returns a Promise. */
export function drive<T>(step: Step<T>): Awaitable<T> {
  let next = step.next();
  while (next.done !== true) {
    if (isPromiseLike(next.value)) return finish(step, next.value);
    next = step.next(next.value);
  }
  return next.value;
}

async function finish<T>(step: Step<T>, pending: PromiseLike<unknown>): Promise<T> {
  let waitingFor = pending;
  for (;;) {
    let next: IteratorResult<Awaitable<unknown>, T>;
    try {
      next = step.next(await waitingFor);
    } catch (error) {
      // The awaited write failed: the error surfaces at the step's `yield`, whose `catch` may handle
      // it. (When it was the step that threw after resuming, the step is over and this rethrows.)
      next = step.throw(error);
    }
    for (;;) {
      if (next.done === true) return next.value;
      if (isPromiseLike(next.value)) break;
      next = step.next(next.value);
    }
    waitingFor = next.value;
  }
}

/** Runs a step that must not wait for anything (an in-process step); throws if it does. */
export function runNow<T>(step: Step<T>): T {
  const result = drive(step);
  if (isPromiseLike(result)) {
    throw new Error('a step on the in-process store waited for a Promise; use an asynchronous port');
  }
  return result;
}
