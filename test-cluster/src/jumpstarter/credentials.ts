/**
 * Exporter credentials as Jumpstarter issues them (INTEROP §1): a Secret `<exporter>-exporter` with
 * key `token` holding a JWT, controller-owned by the Exporter so garbage collection removes it with
 * the Exporter. The simulated token looks like a JWT (three base64url parts, a JSON header and
 * claims) but is signed with random bytes: nothing verifies signatures here, only equality.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { JUMPSTARTER_API_VERSION, Kinds, type Exporter } from 'virtual-exporters/internal';
import type { KubeObject } from '../types';

/** Name of an Exporter's credential Secret. */
export function credentialSecretName(exporter: string): string {
  return `${exporter}-exporter`;
}

/** The exporter whose credential Secret this is, or `undefined` for another name. */
export function exporterOfCredentialSecret(secretName: string): string | undefined {
  return secretName.endsWith('-exporter') ? secretName.slice(0, -'-exporter'.length) : undefined;
}

const base64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** A fresh JWT-shaped token for `namespace/exporter`, issued at `now` (clock ms). */
export function issueToken(namespace: string, exporter: string, now: number, issuer: string): string {
  const header = { alg: 'ES256', typ: 'JWT' };
  const claims = {
    iss: issuer,
    aud: issuer,
    sub: `${namespace}:${exporter}`,
    kind: 'Exporter',
    iat: Math.floor(now / 1000),
    jti: randomUUID(),
  };
  return [
    base64url(JSON.stringify(header)),
    base64url(JSON.stringify(claims)),
    base64url(randomBytes(64)),
  ].join('.');
}

/** The credential Secret of an Exporter (which must carry its uid, for the ownerReference). */
export function credentialSecret(exporter: Exporter, token: string): KubeObject {
  const { name, namespace, uid } = exporter.metadata;
  if (name === undefined || uid === undefined) {
    throw new Error('the credential Secret needs a stored Exporter (name and uid)');
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: credentialSecretName(name),
      namespace,
      ownerReferences: [
        {
          apiVersion: JUMPSTARTER_API_VERSION,
          kind: Kinds.Exporter,
          name,
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    type: 'Opaque',
    data: { token: Buffer.from(token).toString('base64') },
  };
}

/** The value of `key` in a Secret: `data` (base64) or, as written before the server converts it, `stringData`. */
export function secretValue(secret: KubeObject, key: string): string | undefined {
  const data = secret.data as Record<string, string> | undefined;
  if (data?.[key] !== undefined) return Buffer.from(data[key], 'base64').toString('utf8');
  const stringData = secret.stringData as Record<string, string> | undefined;
  return stringData?.[key];
}
