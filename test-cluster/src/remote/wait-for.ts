/**
 * Waiting for an object to reach a state, on a port's view: checked against what the view holds now
 * and again on every change of the object. The timeout is wall-clock time (a test's patience).
 */
import type { ClusterPort, SimulatedKind } from '../port';
import type { KubeObject } from '../types';

/** Resolves with the object once `predicate` holds for it; rejects after `timeoutMs` with its last state. */
export function waitForPortObject<T>(
  port: ClusterPort,
  kind: SimulatedKind,
  namespace: string,
  name: string,
  predicate: (object: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let last: KubeObject | undefined;
    let done = false;
    let unsubscribe: (() => void) | undefined;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      unsubscribe?.();
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      const state = last === undefined ? 'it does not exist' : `its last state: ${JSON.stringify(last)}`;
      reject(new Error(`${kind} ${namespace}/${name}: condition not met within ${timeoutMs} ms; ${state}`));
    }, timeoutMs);
    try {
      unsubscribe = port.watch(kind, (event) => {
        const { metadata } = event.object;
        if (done || metadata.namespace !== namespace || metadata.name !== name) return;
        last = event.type === 'DELETED' ? undefined : event.object;
        let ok = false;
        try {
          ok = last !== undefined && predicate(last as unknown as T);
        } catch (error) {
          finish();
          reject(error);
          return;
        }
        if (ok) {
          finish();
          resolve(last as unknown as T);
        }
      });
      if (done) unsubscribe();
    } catch (error) {
      finish();
      reject(error);
    }
  });
}
