/**
 * The newest status the controller knows per set (SPEC §3 freshness): after a `/status` write the
 * cache may still show the older status for a while, and planning from it would move persisted fields
 * (scale-down window start, startup failures, next ordinal) back in time. The memo keeps the status
 * written with the resourceVersion the server answered, until the cache shows that version or newer.
 */
import type { ExporterSet, ExporterSetStatus } from 'virtual-exporters/internal';

interface Written {
  readonly status: ExporterSetStatus;
  readonly resourceVersion: string | undefined;
}

/** resourceVersions are opaque, but etcd's (and the test cluster's) are integers; compare them so. */
export function notOlder(cached: string | undefined, written: string | undefined): boolean {
  if (cached === undefined || written === undefined) return false;
  if (cached === written) return true;
  if (!/^\d+$/.test(cached) || !/^\d+$/.test(written)) return false;
  return BigInt(cached) >= BigInt(written);
}

export class StatusMemo {
  private readonly written = new Map<string, Written>();

  /** Remembers what a write left on the server. */
  remember(key: string, status: ExporterSetStatus, resourceVersion: string | undefined): void {
    this.written.set(key, { status, resourceVersion });
  }

  /** The set with the newest known status; drops the memo once the cache caught up. */
  newest(key: string, cached: ExporterSet): ExporterSet {
    const memo = this.written.get(key);
    if (!memo) return cached;
    if (notOlder(cached.metadata?.resourceVersion, memo.resourceVersion)) {
      this.written.delete(key);
      return cached;
    }
    return { ...cached, status: memo.status };
  }

  forget(key: string): void {
    this.written.delete(key);
  }
}
