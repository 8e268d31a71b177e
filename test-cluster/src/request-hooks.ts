/**
 * Request hooks: a test's code run before a matching request is served, the request served once that
 * code has settled. A test forces an interleaving with one — another writer's change landing between a
 * client's read and its write, such as a Lease assigned between a controller's Lease list and its
 * delete — deterministically, where in the wild the race needs luck. Rules match requests as fault
 * rules do (faults.ts `FaultMatch`): by verb, resource, identity, namespace.
 *
 * The hook runs after any injected latency and before injected errors; a hook that throws answers the
 * request with its error (500 unless it is an `ApiError`), and nothing is written.
 */
import type { RequestAttributes } from './counters';
import { requestMatches, type FaultMatch } from './faults';

/** Code run before a matching request is served; the request waits for it. */
export type RequestHook = (request: RequestAttributes) => void | Promise<void>;

/** Which requests a hook runs before. */
export interface RequestHookRule extends FaultMatch {
  /**
   * The hook runs before at most this many matching requests, then stays inert.
   * @default unlimited
   */
  readonly times?: number;
}

interface ActiveHook {
  readonly rule: RequestHookRule;
  readonly run: RequestHook;
  hits: number;
}

export class RequestHooks {
  private readonly active = new Map<string, ActiveHook>();
  private nextId = 1;

  /** Runs `run` before each request `rule` matches; returns its id for `remove` and `hits`. */
  before(rule: RequestHookRule, run: RequestHook): string {
    const id = `hook-${this.nextId++}`;
    this.active.set(id, { rule: { ...rule }, run, hits: 0 });
    return id;
  }

  /** Removes one hook; false when there was none with this id. */
  remove(id: string): boolean {
    return this.active.delete(id);
  }

  /** Removes every hook. */
  clear(): void {
    this.active.clear();
  }

  /** How many requests the hook ran before (0 for an unknown id). */
  hits(id: string): number {
    return this.active.get(id)?.hits ?? 0;
  }

  /** Runs the hooks matching `request`, one after the other in the order they were added. */
  async runBefore(request: RequestAttributes): Promise<void> {
    for (const hook of [...this.active.values()]) {
      const { rule } = hook;
      if (!requestMatches(rule, request)) continue;
      if (rule.times !== undefined && hook.hits >= rule.times) continue;
      hook.hits += 1;
      await hook.run(request);
    }
  }
}
