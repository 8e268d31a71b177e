/**
 * `settle()` against a remote API server, best effort: it resolves once the simulators have handled
 * every watch event received so far (their queues are empty and no step runs) and no request of the
 * port is in flight (no write, no refresh), for a few consecutive turns of the event loop. It cannot
 * know of changes the server has made and not sent yet — a write by someone else whose watch event is
 * still on its way, the watch event of the simulators' own last write (whose answer they already
 * handled) — nor does it wait for timers (a boot delay, a lease's expiry), as in process it does not
 * either. While something is busy it polls every few milliseconds of wall time (rather than spinning
 * the event loop while requests are on the wire) and rejects after `timeoutMs`.
 */
import type { Settleable } from '../jumpstarter/work-queue';

const QUIET_TURNS = 3;
const POLL_MS = 2;

export async function settleRemote(parts: readonly Settleable[], timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < QUIET_TURNS) {
    if (parts.every((part) => part.idle())) {
      quiet += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    quiet = 0;
    if (Date.now() > deadline) {
      throw new Error(`the remote simulators did not settle within ${timeoutMs} ms of wall time`);
    }
    await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS));
  }
}
