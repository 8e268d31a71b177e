import { describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import {
  checkHostKey,
  fingerprint,
  knownHostsLine,
  TRUST_DOCUMENT_HEADER,
  type TrustStore,
} from '../../../lib/provisioners';

/** An ssh-ed25519 public key blob (SSH wire format), new each call. */
function hostKey(): Buffer {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const wireString = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  return Buffer.concat([
    wireString(Buffer.from('ssh-ed25519')),
    wireString(Buffer.from(jwk.x!, 'base64url')),
  ]);
}

const LOCATION = 'Secret lab/lab-ssh-known-hosts (key known_hosts)';

/** A trust store as the controller keeps one (a document replaced whole), in memory, counting writes. */
class Store implements TrustStore {
  readonly location = LOCATION;
  writes = 0;
  reads = 0;
  /** Runs before the next replace looks at the document: another writer's turn. */
  beforeReplace: (() => void) | undefined;
  constructor(public document: string | undefined = undefined) {}
  async read(): Promise<string | undefined> {
    this.reads++;
    return this.document;
  }
  async replace(expected: string | undefined, next: string): Promise<boolean> {
    const other = this.beforeReplace;
    this.beforeReplace = undefined;
    other?.();
    if (this.document !== expected) return false;
    this.document = next;
    this.writes++;
    return true;
  }
}

const HOST = '10.0.0.7';
const PORT = 2222;
const WHERE = `[${HOST}]:${PORT}`;

describe('qemu-ssh host keys › trust on first use kept in a store', () => {
  it('writes the key to the store on first use, then trusts it without writing again', async () => {
    const store = new Store();
    const key = hostKey();
    const first = await checkHostKey(HOST, PORT, key, undefined, store);
    expect(store.document).toBe(`${TRUST_DOCUMENT_HEADER}${knownHostsLine(HOST, PORT, key)}\n`);
    expect(first).toEqual({
      ok: true,
      notice: {
        reason: 'HostKeyTrustedOnFirstUse',
        message:
          `trusted the host key of ${WHERE} on first use: ${fingerprint(key)}, recorded in ${LOCATION}; ` +
          `pin it by adding "${knownHostsLine(HOST, PORT, key)}" to knownHosts in the class's parameters`,
      },
    });
    expect(await checkHostKey(HOST, PORT, key, undefined, store)).toEqual({ ok: true });
    expect(store.writes).toBe(1);
  });

  it('refuses a changed key after a restart (nothing in memory, the same store), naming both fingerprints and the fix', async () => {
    const old = hostKey();
    const store = new Store(`${TRUST_DOCUMENT_HEADER}${knownHostsLine(HOST, PORT, old)}\n`);
    const offered = hostKey();
    expect(await checkHostKey(HOST, PORT, offered, undefined, store)).toEqual({
      ok: false,
      message:
        `host key of ${WHERE} changed since it was trusted on first use: the host presents ${fingerprint(offered)}, ` +
        `${fingerprint(old)} was recorded in ${LOCATION}; if the change is expected, remove the line of ${WHERE} ` +
        `there (the next connection trusts the new key on first use), or pin the new key with knownHosts in the class's parameters`,
    });
    expect(store.writes).toBe(0);
    // The admin removes the line: the next key is trusted on first use and recorded.
    store.document = TRUST_DOCUMENT_HEADER;
    expect((await checkHostKey(HOST, PORT, offered, undefined, store)).ok).toBe(true);
    expect(store.document).toBe(`${TRUST_DOCUMENT_HEADER}${knownHostsLine(HOST, PORT, offered)}\n`);
  });

  it("keeps other hosts' lines and an admin's own lines, and honours @revoked there", async () => {
    const other = hostKey();
    const revoked = hostKey();
    const admin = `${knownHostsLine('10.0.0.8', 22, other)}\n@revoked ${knownHostsLine(HOST, PORT, revoked)}`;
    const store = new Store(admin);
    const key = hostKey();
    expect((await checkHostKey(HOST, PORT, key, undefined, store)).ok).toBe(true);
    expect(store.document).toBe(`${admin}\n${knownHostsLine(HOST, PORT, key)}\n`);
    expect(await checkHostKey(HOST, PORT, revoked, undefined, store)).toEqual({
      ok: false,
      message: `host ${WHERE} presents key ${fingerprint(revoked)}, which ${LOCATION} marks @revoked`,
    });
  });

  it('decides again when another writer came first: its key wins, a different one is refused', async () => {
    const store = new Store();
    const theirs = hostKey();
    store.beforeReplace = () => {
      store.document = `${TRUST_DOCUMENT_HEADER}${knownHostsLine(HOST, PORT, theirs)}\n`;
    };
    const mine = hostKey();
    const verdict = await checkHostKey(HOST, PORT, mine, undefined, store);
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.message).toContain(`changed since it was trusted on first use`);
    // The same key recorded by the other writer: trusted, and no second notice.
    store.document = undefined;
    store.beforeReplace = () => {
      store.document = `${TRUST_DOCUMENT_HEADER}${knownHostsLine(HOST, PORT, mine)}\n`;
    };
    expect(await checkHostKey(HOST, PORT, mine, undefined, store)).toEqual({ ok: true });
  });

  it('refuses when the store cannot be read or written: trust that is not kept is not given', async () => {
    const key = hostKey();
    const broken: TrustStore = {
      location: LOCATION,
      read: async () => {
        throw new Error('secrets "lab-ssh-known-hosts" is forbidden');
      },
      replace: async () => true,
    };
    expect(await checkHostKey(HOST, PORT, key, undefined, broken)).toEqual({
      ok: false,
      message: `the host key of ${WHERE} (${fingerprint(key)}) is not trusted: ${LOCATION} cannot be read or written: secrets "lab-ssh-known-hosts" is forbidden`,
    });
    const unwritable = new Store();
    unwritable.replace = async () => {
      throw new Error('the server is unavailable');
    };
    const verdict = await checkHostKey(HOST, PORT, key, undefined, unwritable);
    expect(!verdict.ok && verdict.message).toContain('cannot be read or written: the server is unavailable');
  });

  it('never consults the store for a host knownHosts pins', async () => {
    const store = new Store();
    const key = hostKey();
    const pinned = knownHostsLine(HOST, PORT, key);
    expect(await checkHostKey(HOST, PORT, key, pinned, store)).toEqual({ ok: true });
    const verdict = await checkHostKey(HOST, PORT, hostKey(), pinned, store);
    expect(!verdict.ok && verdict.message).toContain('does not match knownHosts');
    expect(store.reads + store.writes).toBe(0);
  });
});
