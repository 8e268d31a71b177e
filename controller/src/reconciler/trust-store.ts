/**
 * The trust store of a lifecycle provisioner (host keys trusted on first use), kept in a Secret next to
 * the class's credentials: `<credentials>-known-hosts` in the set's namespace, its key `known_hosts`
 * OpenSSH known_hosts text. A restarted controller reads it and trusts exactly what it trusted before;
 * an admin accepts a changed key by removing the host's line (or deleting the Secret).
 *
 * One store per pass of a set, like the credentials read: the document is read once (GET), and written
 * only on a first use, as a create or as a merge patch carrying the resourceVersion it was read at, so
 * a concurrent writer is a 409 and the lifecycle decides again on a fresh read. Only `get`, `create` and
 * `patch` on Secrets, which a lifecycle installation has already (lib/manifests/rbac.ts). The document
 * holds public keys only; it appears in no log, event or status.
 */
import type { CoreV1Api, V1Secret } from '@kubernetes/client-node';
import type { TrustStore } from 'virtual-exporters/internal';
import { isNotFound, statusCode } from '../kube/api-errors';
import { mergePatch, patchSecret } from '../kube/patch';

/** The Secret key holding the document. */
export const TRUST_DOCUMENT_KEY = 'known_hosts';
const SUFFIX = '-known-hosts';
/** A Secret's name is a DNS subdomain of at most 253 characters. */
const MAX_NAME = 253;

/** The trust Secret beside the credentials Secret `credentials`. */
export function trustSecretName(credentials: string): string {
  return `${credentials.slice(0, MAX_NAME - SUFFIX.length).replace(/[.-]+$/, '')}${SUFFIX}`;
}

export type SecretsApi = Pick<
  CoreV1Api,
  'readNamespacedSecret' | 'createNamespacedSecret' | 'patchNamespacedSecret'
>;

interface Read {
  readonly document: string | undefined;
  /** Undefined when the Secret does not exist. */
  readonly resourceVersion: string | undefined;
}

export class SecretTrustStore implements TrustStore {
  readonly location: string;
  /** The document as last read or written in this pass. */
  private last: Promise<string | undefined> | undefined;

  constructor(
    private readonly core: SecretsApi,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.location = `Secret ${namespace}/${name} (key ${TRUST_DOCUMENT_KEY})`;
  }

  async read(): Promise<string | undefined> {
    this.last ??= this.fetch().then((r) => r.document);
    return this.last;
  }

  async replace(expected: string | undefined, next: string): Promise<boolean> {
    const current = await this.fetch();
    this.last = Promise.resolve(current.document);
    if (current.document !== expected) return false;
    const data = { [TRUST_DOCUMENT_KEY]: Buffer.from(next, 'utf8').toString('base64') };
    try {
      if (current.resourceVersion === undefined) {
        const body: V1Secret = {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: this.name, namespace: this.namespace },
          type: 'Opaque',
          data,
        };
        await this.core.createNamespacedSecret({ namespace: this.namespace, body });
      } else {
        await patchSecret(
          this.core,
          this.namespace,
          this.name,
          mergePatch({ metadata: { resourceVersion: current.resourceVersion }, data }),
        );
      }
    } catch (error) {
      // AlreadyExists or a resourceVersion that moved: another writer came first.
      if (statusCode(error) === 409) {
        this.last = undefined;
        return false;
      }
      throw error;
    }
    this.last = Promise.resolve(next);
    return true;
  }

  private async fetch(): Promise<Read> {
    try {
      const secret = await this.core.readNamespacedSecret({ namespace: this.namespace, name: this.name });
      const encoded = secret.data?.[TRUST_DOCUMENT_KEY];
      return {
        document: encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8'),
        resourceVersion: secret.metadata?.resourceVersion ?? '',
      };
    } catch (error) {
      if (isNotFound(error)) return { document: undefined, resourceVersion: undefined };
      throw error;
    }
  }
}

/** The trust store of the class credentials `credentials` in `namespace`, one per pass of a set. */
export function secretTrustStores(core: SecretsApi): (namespace: string, credentials: string) => TrustStore {
  return (namespace, credentials) => new SecretTrustStore(core, namespace, trustSecretName(credentials));
}
