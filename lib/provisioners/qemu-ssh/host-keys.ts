/**
 * Host key pinning. A host's key must match its `knownHosts` entry; a host with no entry is trusted on
 * first use: its key is written to the trust store (OpenSSH known_hosts text, one line per host) before
 * the connection is used, and reported as a notice with its fingerprint, where it is kept and the
 * known_hosts line that pins it. After that, a different key is refused, naming the host, both
 * fingerprints and how to accept the new one; a store that cannot be read or written refuses too, since
 * trust that is not kept would be given again after a restart. A `@revoked` key is always refused.
 */
import type { LifecycleNotice, TrustStore } from '../provisioner';
import { fingerprint, knownHostsLine, knownHostsName, knownKeysFor, parseKnownHosts } from './known-hosts';

export type HostKeyVerdict =
  { readonly ok: true; readonly notice?: LifecycleNotice } | { readonly ok: false; readonly message: string };

export const HOST_KEY_TOFU_REASON = 'HostKeyTrustedOnFirstUse';

/** The first line of a trust document, for the admin who opens it. */
export const TRUST_DOCUMENT_HEADER =
  "# Host keys the qemu-ssh provisioner trusted on first use. Remove a host's line to trust its next key.\n";

/** Writes that find the document changed by another writer before one succeeds. */
const RECORD_ATTEMPTS = 5;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The verdict on a key `knownHosts` pins (or revokes); undefined when it names no key for the host. */
function pinnedVerdict(
  host: string,
  port: number,
  key: Buffer,
  knownHosts: string | undefined,
): HostKeyVerdict | undefined {
  const where = knownHostsName(host, port);
  const presented = fingerprint(key);
  const { keys, revoked } = knownKeysFor(parseKnownHosts(knownHosts), host, port);
  if (revoked.some((k) => k.equals(key))) {
    return { ok: false, message: `host ${where} presents key ${presented}, which knownHosts marks @revoked` };
  }
  if (keys.length === 0) return undefined;
  if (keys.some((k) => k.equals(key))) return { ok: true };
  return {
    ok: false,
    message:
      `host key of ${where} does not match knownHosts: the host presents ${presented}, knownHosts pins ` +
      `${keys.map(fingerprint).join(', ')}; if the host was reinstalled, update knownHosts in the class's parameters`,
  };
}

/** The verdict on the key `host:port` presents, given the class's `knownHosts` text and the trust store. */
export async function checkHostKey(
  host: string,
  port: number,
  key: Buffer,
  knownHosts: string | undefined,
  trust: TrustStore,
): Promise<HostKeyVerdict> {
  const pinned = pinnedVerdict(host, port, key, knownHosts);
  if (pinned !== undefined) return pinned;
  const where = knownHostsName(host, port);
  const presented = fingerprint(key);
  try {
    for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
      const document = await trust.read();
      const { keys, revoked } = knownKeysFor(parseKnownHosts(document), host, port);
      if (revoked.some((k) => k.equals(key))) {
        return {
          ok: false,
          message: `host ${where} presents key ${presented}, which ${trust.location} marks @revoked`,
        };
      }
      if (keys.some((k) => k.equals(key))) return { ok: true };
      if (keys.length > 0) {
        return {
          ok: false,
          message:
            `host key of ${where} changed since it was trusted on first use: the host presents ${presented}, ` +
            `${keys.map(fingerprint).join(', ')} was recorded in ${trust.location}; if the change is expected, ` +
            `remove the line of ${where} there (the next connection trusts the new key on first use), or pin ` +
            `the new key with knownHosts in the class's parameters`,
        };
      }
      const base = document === undefined || document === '' ? TRUST_DOCUMENT_HEADER : document;
      const next = `${base}${base.endsWith('\n') ? '' : '\n'}${knownHostsLine(host, port, key)}\n`;
      if (await trust.replace(document, next)) {
        return {
          ok: true,
          notice: {
            reason: HOST_KEY_TOFU_REASON,
            message:
              `trusted the host key of ${where} on first use: ${presented}, recorded in ${trust.location}; ` +
              `pin it by adding "${knownHostsLine(host, port, key)}" to knownHosts in the class's parameters`,
          },
        };
      }
    }
    return {
      ok: false,
      message: `the host key of ${where} could not be recorded in ${trust.location}: it kept changing; retried later`,
    };
  } catch (error) {
    return {
      ok: false,
      message: `the host key of ${where} (${presented}) is not trusted: ${trust.location} cannot be read or written: ${errorMessage(error)}`,
    };
  }
}
