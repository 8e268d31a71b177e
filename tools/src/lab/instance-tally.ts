/**
 * Counts the pools' instances over a lab run from the Exporter watch: each Exporter a set created,
 * and each one removed — recycled when it had served a lease (an ExitAndReplace instance whose
 * lease ended), otherwise removed (scale-down, a failed start, drain).
 */
import { Labels } from 'virtual-exporters/internal';
import type { WatchEvent } from 'virtual-exporters-test-cluster';
import type { InstanceTally } from './summary';

export class InstanceCounter {
  private readonly live = new Map<string, string>(); // namespace/name → uid
  private readonly served = new Set<string>(); // uids
  private readonly deleted = new Set<string>();
  private created = 0;
  private recycled = 0;
  private removed = 0;

  /** Feeds one event of a watch on Exporters (any namespace) started before the pools had any. */
  observe(event: WatchEvent): void {
    const { metadata } = event.object;
    if (event.type === 'BOOKMARK' || metadata.labels?.[Labels.exporterSetName] === undefined) return;
    const key = `${metadata.namespace ?? ''}/${metadata.name ?? ''}`;
    const uid = metadata.uid ?? key;
    if (event.type === 'ADDED') {
      this.live.set(key, uid);
      this.created += 1;
    } else if (event.type === 'DELETED' && !this.deleted.has(uid)) {
      this.deleted.add(uid);
      this.live.delete(key);
      if (this.served.has(uid)) this.recycled += 1;
      else this.removed += 1;
    }
  }

  /** Jumpstarter assigned a lease to the Exporter `namespace/name` (as it is now). */
  leaseAssigned(namespace: string, name: string): void {
    const uid = this.live.get(`${namespace}/${name}`);
    if (uid !== undefined) this.served.add(uid);
  }

  tally(): InstanceTally {
    return { created: this.created, recycled: this.recycled, removed: this.removed };
  }
}
