/**
 * §3.8 recycle: what happens to an instance whose Pod ended (after a lease, or a failure). With
 * ExitAndReplace the instance leaves — as a recycle when it had served (was ever ready), else as a
 * failed one — and §3.1–3.3 refill. With InPlaceReuse its ended Pod is deleted and the same Exporter
 * rendered again; not for one that never got its Pod (no credential), not under reclaimPolicy
 * Retain for one that served a lease (it is released for inspection instead, leaving.ts), and not for
 * an outdated one under the Opportunistic update strategy, which is replaced exactly then
 * (update-strategy.ts).
 */
import type { ScaleReason } from 'virtual-exporters/internal';
import type { DeletePodAction } from '../model/actions';
import type { InstanceView } from '../observe/instance-view';
import type { SpecValues } from '../spec/spec-values';

/** The next step of a failed or exited instance: its Pod replaced in place, or leaving for `reason`. */
export function recycleStep(
  view: InstanceView,
  spec: Pick<SpecValues, 'inPlaceReuse' | 'retain'> & Partial<Pick<SpecValues, 'update'>>,
): 'replace-pod' | ScaleReason {
  const replacedNow = spec.update?.type === 'Opportunistic' && !view.current;
  if (spec.inPlaceReuse && view.podPresent && !(spec.retain && view.servedLease) && !replacedNow) {
    return 'replace-pod';
  }
  return view.state === 'exited' && view.everReady ? 'recycle' : 'failed';
}

/** The ended Pods to delete so they are rendered again (InPlaceReuse), skipping instances that go. */
export function replacePods(
  replacing: readonly InstanceView[],
  removed: ReadonlySet<string>,
): DeletePodAction[] {
  return replacing
    .filter((view) => !removed.has(view.name))
    .map((view) => {
      const podUid = view.source.pod?.metadata?.uid;
      return { type: 'DeletePod', name: view.name, ...(podUid ? { podUid } : {}), reason: 'failed' };
    });
}
