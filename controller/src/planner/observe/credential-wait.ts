/**
 * An instance waiting for its credential (INTEROP §1, §3): the Pod is rendered only once Jumpstarter
 * has set the Exporter's `status.credential` and `status.endpoint` and the credential Secret
 * `<exporter>-exporter` holds a `token`. Jumpstarter owns that Secret; when someone else wrote a Secret
 * of that name first, without a `token`, Jumpstarter cannot issue one and the instance would wait for
 * ever, counted as supply. So a wait that lasts is named on `InstancesHealthy` (the Secret's namespace and
 * name, never a value), and at the startup timeout (counted from the Exporter's creation, as no Pod
 * exists) the instance is failed like one whose Pod never became ready: replaced, and counted as a
 * startup failure, so a namespace where no credential is ever issued backs off instead of looping.
 */
import type { InstanceSnapshot } from '../model/snapshot';

/** How long a normal wait may last before the set names it: Jumpstarter issues within seconds. */
export function credentialGraceMs(startupTimeoutMs: number): number {
  return Math.min(30_000, startupTimeoutMs / 2);
}

/** Jumpstarter's name for an Exporter's credential Secret (INTEROP §1). */
export function credentialSecretName(instance: InstanceSnapshot): string {
  const named = instance.exporter.status?.credential?.name;
  return typeof named === 'string' && named !== ''
    ? named
    : `${instance.exporter.metadata?.name ?? ''}-exporter`;
}

/** Whether what the Pod's render needs from Jumpstarter is there: credential, its token, endpoint. */
export function credentialIssued(instance: InstanceSnapshot): boolean {
  const status = instance.exporter.status;
  return Boolean(status?.credential?.name && status.endpoint) && instance.credentialTokenMissing !== true;
}

/** What the instance waits for, in words: the credential Secret (namespace/name), or the endpoint. */
export function awaitedCredential(instance: InstanceSnapshot): string {
  const status = instance.exporter.status;
  if (status?.credential?.name && instance.credentialTokenMissing !== true) return 'status.endpoint';
  const namespace = instance.exporter.metadata?.namespace ?? '';
  return `credential Secret ${namespace}/${credentialSecretName(instance)} (key token)`;
}
