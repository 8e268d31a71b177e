/**
 * Host key pinning. A host's key must match its `knownHosts` entry; a host with no entry is trusted on
 * first use: its key is recorded (in memory, for the life of the controller process) and reported as a
 * notice with its fingerprint and the known_hosts line that pins it. After that, a different key is
 * refused, naming the host and both fingerprints. A `@revoked` key is always refused.
 */
import type { LifecycleNotice } from '../provisioner';
import { fingerprint, knownHostsLine, knownHostsName, knownKeysFor, parseKnownHosts } from './known-hosts';

export type HostKeyVerdict =
  { readonly ok: true; readonly notice?: LifecycleNotice } | { readonly ok: false; readonly message: string };

export const HOST_KEY_TOFU_REASON = 'HostKeyTrustedOnFirstUse';

export class HostKeyPins {
  /** Keys trusted on first use, by `knownHostsName`. */
  private readonly firstUse = new Map<string, Buffer>();

  /** The verdict on the key `host:port` presents, given the class's `knownHosts` text. */
  check(host: string, port: number, key: Buffer, knownHosts: string | undefined): HostKeyVerdict {
    const where = knownHostsName(host, port);
    const presented = fingerprint(key);
    const { keys, revoked } = knownKeysFor(parseKnownHosts(knownHosts), host, port);
    if (revoked.some((k) => k.equals(key))) {
      return {
        ok: false,
        message: `host ${where} presents key ${presented}, which knownHosts marks @revoked`,
      };
    }
    if (keys.length > 0) {
      if (keys.some((k) => k.equals(key))) return { ok: true };
      return {
        ok: false,
        message:
          `host key of ${where} does not match knownHosts: the host presents ${presented}, knownHosts pins ` +
          `${keys.map(fingerprint).join(', ')}; if the host was reinstalled, update knownHosts in the class's parameters`,
      };
    }
    const recorded = this.firstUse.get(where);
    if (recorded !== undefined) {
      if (recorded.equals(key)) return { ok: true };
      return {
        ok: false,
        message:
          `host key of ${where} changed since it was trusted on first use: the host presents ${presented}, ` +
          `${fingerprint(recorded)} was recorded; if the change is expected, pin the new key with knownHosts in the class's parameters`,
      };
    }
    this.firstUse.set(where, Buffer.from(key));
    return {
      ok: true,
      notice: {
        reason: HOST_KEY_TOFU_REASON,
        message:
          `trusted the host key of ${where} on first use: ${presented}; pin it by adding ` +
          `"${knownHostsLine(host, port, key)}" to knownHosts in the class's parameters`,
      },
    };
  }
}
