/**
 * Pods and config Secrets, the pipeline's sixth step (plan.ts): an instance that should have a Pod (not
 * a standby, or promoted this pass) gets one once its Exporter has a credential and an endpoint and
 * new Pods may start (§3.9, §3.13); a live Pod's config Secret is re-synced when it is missing or
 * differs from what the reconciler rendered.
 */
import type { Action } from '../model/actions';
import { credentialIssued } from '../observe/credential-wait';
import type { InstanceView } from '../observe/instance-view';
import { isLive } from '../observe/runtime';
import type { World } from '../observe/world';
import { hasPodRole } from './scale/standby';

function sameData(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b)]);
  for (const key of keys) if ((a ?? {})[key] !== b[key]) return false;
  return true;
}

/**
 * The config Secret of a live, kept instance with a Pod needs writing. An instance realised by a
 * lifecycle provisioner has no Pod and no config Secret: its config lives where it runs.
 */
function configOutOfDate(view: InstanceView): boolean {
  const kept = view.state !== 'retiring' && view.state !== 'failed' && view.state !== 'exited';
  if (view.source.pod === undefined || !isLive(view.runtime) || !kept) return false;
  const secret = view.source.configSecret;
  const desired = view.source.desiredConfigSecretData;
  return secret === undefined || (desired !== undefined && !sameData(secret.data, desired));
}

export interface PodsAndConfigs {
  readonly actions: readonly Action[];
  /** Renders planned (Pods this pass starts). */
  readonly rendering: number;
}

export function podsAndConfigs(
  world: World,
  gates: { readonly canStartPods: boolean; readonly parametersValid: boolean },
  removed: ReadonlySet<string>,
  promoted: ReadonlySet<string>,
): PodsAndConfigs {
  const actions: Action[] = [];
  let rendering = 0;
  for (const view of world.owned) {
    if (removed.has(view.name)) continue;
    const credential = credentialIssued(view.source);
    const wantsPod = (hasPodRole(view) && !view.standby) || promoted.has(view.name);
    if (wantsPod && !view.podPresent && gates.canStartPods && credential) {
      actions.push({ type: 'RenderInstance', name: view.name });
      rendering += 1;
    } else if (gates.parametersValid && credential && configOutOfDate(view)) {
      actions.push({ type: 'SyncConfigSecret', name: view.name });
    }
  }
  return { actions, rendering };
}
