/**
 * The Jumpstarter simulator's credential authority (INTEROP §1): it issues each Exporter's token into
 * the credential Secret, knows the current token of every Exporter (from the Secret watch and its own
 * writes), rotates tokens on request and checks what a registering exporter process presents.
 */
import type { Exporter } from 'virtual-exporters/internal';
import type { Clock } from '../types';
import { wait, type ClusterPort, type PortEvent, type Step } from '../port';
import { ApiError } from '../types';
import {
  credentialSecret,
  credentialSecretName,
  exporterOfCredentialSecret,
  issueToken,
  secretValue,
} from './credentials';
import type { Registration, RegistrationResult } from './exporter-processes';
import { nameOf } from './namespace-index';

export interface CredentialIssuerOptions {
  readonly port: ClusterPort;
  readonly clock: Clock;
  readonly endpoint: string;
  /** How long after it first sees an Exporter the issuer issues its credential. @default 0 */
  readonly credentialDelayMs?: number;
}

export interface CredentialIssuer {
  /** The current token of an Exporter, once issued. */
  token(namespace: string, exporter: string): string | undefined;
  /** Whether the credential delay of an Exporter without a token is over; else notes when it will be. */
  delayOver(exporter: Exporter, now: number, wakeTimes: number[]): boolean;
  /** Issues the credential unless it exists; returns the Secret's name, or undefined when there is none yet. */
  ensure(exporter: Exporter, namespace: string): Step<string | undefined>;
  /** Writes a new token into the credential Secret and returns it. */
  rotate(namespace: string, exporter: string): Step<string>;
  /** Takes note of a Secret watch event; returns whether it was a credential Secret. */
  observe(event: PortEvent): boolean;
  /** The controller's side of a registration: the Exporter exists, the endpoint and the token match. */
  authenticate(registration: Registration): RegistrationResult;
}

export function createCredentialIssuer(options: CredentialIssuerOptions): CredentialIssuer {
  const { port, clock, endpoint } = options;
  /** Credential tokens by `namespace/secretName`, from the Secret watch and our own writes. */
  const tokens = new Map<string, string>();
  /** When the issuer first saw each Exporter still waiting for its credential (`credentialDelayMs`). */
  const awaitingSince = new Map<string, number>();
  const secretKey = (namespace: string, exporter: string): string =>
    `${namespace}/${credentialSecretName(exporter)}`;
  const newToken = (namespace: string, exporter: string): string =>
    issueToken(namespace, exporter, clock.now(), `https://${endpoint}`);

  return {
    token: (namespace, exporter) => tokens.get(secretKey(namespace, exporter)),

    delayOver(exporter, now, wakeTimes) {
      const delay = options.credentialDelayMs ?? 0;
      if (delay <= 0) return true;
      const id = exporter.metadata.uid ?? nameOf(exporter);
      const since = awaitingSince.get(id) ?? now;
      awaitingSince.set(id, since);
      if (now >= since + delay) return true;
      wakeTimes.push(since + delay);
      return false;
    },

    *ensure(exporter, namespace) {
      const name = nameOf(exporter);
      const key = secretKey(namespace, name);
      if (tokens.has(key)) return credentialSecretName(name);
      awaitingSince.delete(exporter.metadata.uid ?? name);
      if (exporter.metadata.deletionTimestamp !== undefined || exporter.metadata.uid === undefined)
        return undefined;
      const token = newToken(namespace, name);
      try {
        yield* wait(port.create('Secret', namespace, credentialSecret(exporter, token)));
        tokens.set(key, token);
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 409)) throw error;
        // It exists: take its token. A port that has not seen it yet (a remote one, or a 409 that was
        // not AlreadyExists) lets the error stand, and the pass is retried.
        const existing = port.get('Secret', namespace, credentialSecretName(name));
        if (existing === undefined) throw error;
        const value = secretValue(existing, 'token');
        if (value === undefined) return undefined;
        tokens.set(key, value);
      }
      return credentialSecretName(name);
    },

    *rotate(namespace, exporter) {
      const token = newToken(namespace, exporter);
      yield* wait(
        port.patch('Secret', namespace, credentialSecretName(exporter), {
          data: { token: Buffer.from(token).toString('base64') },
        }),
      );
      tokens.set(secretKey(namespace, exporter), token);
      return token;
    },

    observe(event) {
      const namespace = event.object.metadata.namespace;
      const name = nameOf(event.object);
      if (namespace === undefined || !exporterOfCredentialSecret(name)) return false;
      const key = `${namespace}/${name}`;
      const token = event.type === 'DELETED' ? undefined : secretValue(event.object, 'token');
      if (token === undefined) tokens.delete(key);
      else tokens.set(key, token);
      return true;
    },

    authenticate(registration) {
      const { namespace, exporter } = registration;
      const found = port.get('Exporter', namespace, exporter);
      if (found === undefined) {
        return { accepted: false, reason: `exporter ${namespace}/${exporter} does not exist` };
      }
      const exporterUid = found.metadata.uid;
      if (registration.endpoint !== undefined && registration.endpoint !== endpoint) {
        return {
          accepted: false,
          reason: `cannot reach ${registration.endpoint}: the Jumpstarter controller serves ${endpoint}`,
        };
      }
      if (
        registration.token !== undefined &&
        registration.token !== tokens.get(secretKey(namespace, exporter))
      ) {
        return { accepted: false, reason: `the token of exporter ${namespace}/${exporter} was rejected` };
      }
      return { accepted: true, ...(exporterUid !== undefined ? { exporterUid } : {}) };
    },
  };
}
