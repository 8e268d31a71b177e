/**
 * The real cluster's keys and certificates, made per run in its data folder: a client CA whose
 * certificates name the identities tests use (CN = user, O = groups, as kube-apiserver's x509
 * authenticator reads them), and the service-account signing key pair. openssl makes the
 * certificates (Node has no API to issue X.509); the RSA key pairs come from node:crypto.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ClientCredential {
  readonly certificate: string;
  readonly key: string;
}

export interface ClusterPki {
  readonly caCertFile: string;
  readonly serviceAccountKeyFile: string;
  readonly serviceAccountPublicKeyFile: string;
  /** A client certificate for `user` in `groups`, issued once per (user, groups) and kept. */
  clientCredential(user: string, groups: readonly string[]): ClientCredential;
}

function writeKeyPair(privateFile: string, publicFile?: string): void {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  writeFileSync(privateFile, privateKey, { mode: 0o600 });
  if (publicFile) writeFileSync(publicFile, publicKey);
}

function openssl(args: string[], dir: string): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT')
      throw new Error('openssl is missing: install it (Debian: apt-get install openssl)');
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString().trim() ?? e.message}`);
  }
}

/** An X.509 subject component must not carry the separators openssl's -subj parses. */
const subjectValue = (value: string): string => {
  if (!/^[A-Za-z0-9:._@-]+$/.test(value)) {
    throw new Error(`identity "${value}" cannot be a certificate subject: use letters, digits and : . _ @ -`);
  }
  return value;
};

/** Makes the CA and the service-account keys in `dir` (a fresh folder of the run). */
export function createPki(dir: string): ClusterPki {
  const caKey = join(dir, 'ca.key');
  const caCertFile = join(dir, 'ca.crt');
  writeKeyPair(caKey);
  openssl(
    ['req', '-x509', '-new', '-key', caKey, '-subj', '/CN=virtual-exporters-test-ca', '-days', '2'].concat([
      '-out',
      caCertFile,
    ]),
    dir,
  );
  const serviceAccountKeyFile = join(dir, 'sa.key');
  const serviceAccountPublicKeyFile = join(dir, 'sa.pub');
  writeKeyPair(serviceAccountKeyFile, serviceAccountPublicKeyFile);
  // One key for every client certificate: the certificates differ, and a key pair costs ~50 ms.
  const clientKey = join(dir, 'client.key');
  writeKeyPair(clientKey);
  const issued = new Map<string, ClientCredential>();
  let serial = 0;
  return {
    caCertFile,
    serviceAccountKeyFile,
    serviceAccountPublicKeyFile,
    clientCredential(user, groups) {
      const subject = `/CN=${subjectValue(user)}` + groups.map((g) => `/O=${subjectValue(g)}`).join('');
      const known = issued.get(subject);
      if (known) return known;
      const base = join(dir, `client-${++serial}`);
      openssl(['req', '-new', '-key', clientKey, '-subj', subject, '-out', `${base}.csr`], dir);
      openssl(
        ['x509', '-req', '-in', `${base}.csr`, '-CA', caCertFile, '-CAkey', caKey, '-CAcreateserial'].concat([
          '-days',
          '2',
          '-out',
          `${base}.crt`,
        ]),
        dir,
      );
      const credential = {
        certificate: readFileSync(`${base}.crt`, 'utf8'),
        key: readFileSync(clientKey, 'utf8'),
      };
      issued.set(subject, credential);
      return credential;
    },
  };
}
