/**
 * OpenSSH `known_hosts` text: parsing, validation and lookup, for pinning host keys. Supported: plain
 * and hashed (`|1|salt|hash`) host fields, several comma-separated patterns with `*` / `?` wildcards
 * and `!` negation, `[host]:port` for a port other than 22, and the `@revoked` marker.
 * `@cert-authority` is not supported (host certificates are not checked) and is reported.
 */
import { createHash, createHmac } from 'node:crypto';
import type { ValidationIssue } from '../../core/issue';

export interface KnownHostEntry {
  /** 1-based line in the text, for messages. */
  readonly line: number;
  readonly revoked: boolean;
  readonly hosts: string;
  readonly keyType: string;
  /** The public key blob (SSH wire format). */
  readonly key: Buffer;
}

const KEY_TYPES = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ssh-dss',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
]);

/** OpenSSH's fingerprint of a key blob: `SHA256:` and the unpadded base64 digest. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The name a host is looked up by: `name` on port 22, `[name]:port` otherwise (as OpenSSH writes it). */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** One `known_hosts` line for a key (what a TOFU notice shows, ready to pin). */
export function knownHostsLine(host: string, port: number, key: Buffer): string {
  return `${knownHostsName(host, port)} ${keyTypeOf(key) ?? 'unknown'} ${key.toString('base64')}`;
}

/** The key type a blob names (its first wire string), or undefined if it is not one. */
export function keyTypeOf(key: Buffer): string | undefined {
  if (key.length < 4) return undefined;
  const len = key.readUInt32BE(0);
  if (len === 0 || len > 64 || 4 + len > key.length) return undefined;
  return key.subarray(4, 4 + len).toString('latin1');
}

interface ParsedLine {
  readonly entry?: KnownHostEntry;
  readonly problem?: string;
}

function parseLine(text: string, line: number): ParsedLine | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const fields = trimmed.split(/\s+/);
  let revoked = false;
  if (fields[0]!.startsWith('@')) {
    const marker = fields.shift()!;
    if (marker === '@cert-authority') {
      return { problem: '@cert-authority entries are not supported; pin the host keys themselves' };
    }
    if (marker !== '@revoked') return { problem: `unknown marker ${marker}; only @revoked is supported` };
    revoked = true;
  }
  const [hosts, keyType, base64] = fields;
  if (hosts === undefined || keyType === undefined || base64 === undefined) {
    return { problem: 'needs three fields: host patterns, key type and base64 key' };
  }
  if (!KEY_TYPES.has(keyType)) return { problem: `unknown key type ${keyType}` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return { problem: 'the key is not base64' };
  const key = Buffer.from(base64, 'base64');
  if (keyTypeOf(key) !== keyType) return { problem: `the key is not a ${keyType} key` };
  return { entry: { line, revoked, hosts, keyType, key } };
}

/** The usable entries of `known_hosts` text (malformed lines are skipped; validation reports them). */
export function parseKnownHosts(text: string | undefined): KnownHostEntry[] {
  if (text === undefined) return [];
  return text.split(/\r?\n/).flatMap((l, i) => {
    const parsed = parseLine(l, i + 1);
    return parsed?.entry ? [parsed.entry] : [];
  });
}

/** One issue per malformed line, at `path` (the value is the line number, never the key). */
export function knownHostsIssues(text: string, path: string): ValidationIssue[] {
  return text.split(/\r?\n/).flatMap((l, i) => {
    const problem = parseLine(l, i + 1)?.problem;
    return problem === undefined
      ? []
      : [
          {
            path,
            value: `line ${i + 1}`,
            message: `${problem} (OpenSSH known_hosts: "host keytype base64-key")`,
          },
        ];
  });
}

function globMatch(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 'i').test(name);
}

/** Whether an entry's host field names `lookup` (see {@link knownHostsName}). */
export function entryMatches(hosts: string, lookup: string): boolean {
  if (hosts.startsWith('|1|')) {
    const [, , salt, hash] = hosts.split('|');
    if (salt === undefined || hash === undefined) return false;
    const digest = createHmac('sha1', Buffer.from(salt, 'base64')).update(lookup).digest('base64');
    return digest === hash;
  }
  let matched = false;
  for (const pattern of hosts.split(',')) {
    if (pattern.startsWith('!')) {
      if (globMatch(pattern.slice(1), lookup)) return false;
    } else if (globMatch(pattern, lookup)) matched = true;
  }
  return matched;
}

/** The pinned keys and revocations for a host. */
export function knownKeysFor(
  entries: readonly KnownHostEntry[],
  host: string,
  port: number,
): { readonly keys: readonly Buffer[]; readonly revoked: readonly Buffer[] } {
  const lookup = knownHostsName(host, port);
  const matching = entries.filter((e) => entryMatches(e.hosts, lookup));
  return {
    keys: matching.filter((e) => !e.revoked).map((e) => e.key),
    revoked: matching.filter((e) => e.revoked).map((e) => e.key),
  };
}
