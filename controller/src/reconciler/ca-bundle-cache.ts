/**
 * The CA bundle of each set's class, read with a GET of its ConfigMap when a pass renders or checks a
 * config: it is one small object, and watching every ConfigMap of a namespace for it would cost more.
 * Only the first read of a ConfigMap is waited for; later passes get the last value at once and, when
 * it is `CA_BUNDLE_REUSE_MS` old, start a refresh that the passes after them use (a failed refresh keeps
 * the value), so no pass waits for a round trip behind a busy API server on the way from a Lease event
 * to the refill create. A changed bundle reaches the config Secrets at the first pass after the refresh.
 *
 * A ConfigMap's entry is kept while a set that read it is known: `forget(key)` drops the set, and with
 * the last set that read it the entry.
 */
import type { CoreV1Api } from '@kubernetes/client-node';
import { DefaultCaBundle, type VirtualTargetClass } from 'virtual-exporters/internal';
import { isNotFound } from '../kube/api-errors';
import { elapsedOf, type Clock } from '../queue/clock';

/** How long (controller clock) a CA bundle read is used before a pass refreshes it. */
export const CA_BUNDLE_REUSE_MS = 30_000;

type ConfigMapData = Readonly<Record<string, string>> | undefined;

interface ConfigMapRead {
  /** When the value was read (or the refresh in flight was started). */
  at: number;
  /** The first read, until it settles; later passes get `value` at once. */
  first?: Promise<ConfigMapData>;
  value?: ConfigMapData;
  known: boolean;
  refreshing: boolean;
}

export class CaBundleCache {
  /** `namespace/name` of a ConfigMap → what is known of its data. */
  private readonly reads = new Map<string, ConfigMapRead>();
  /** `namespace/name` of a ConfigMap → the keys of the sets that read it. */
  private readonly readers = new Map<string, Set<string>>();

  constructor(
    private readonly core: CoreV1Api,
    private readonly clock: Clock,
  ) {}

  /** The CA bundle the class `cls` names for the set `key` (undefined when its ConfigMap or key is missing). */
  async bundle(key: string, namespace: string, cls: VirtualTargetClass): Promise<string | undefined> {
    const ref = cls.spec?.caBundleConfigMapRef;
    const data = await this.read(key, namespace, ref?.name ?? DefaultCaBundle.configMapName);
    return data?.[ref?.key ?? DefaultCaBundle.key];
  }

  /** Drops what was read for the set `key` that no other set read. */
  forget(key: string): void {
    for (const [id, readers] of this.readers) {
      readers.delete(key);
      if (readers.size > 0) continue;
      this.readers.delete(id);
      this.reads.delete(id);
    }
  }

  private read(key: string, namespace: string, name: string): Promise<ConfigMapData> {
    const id = `${namespace}/${name}`;
    const readers = this.readers.get(id) ?? new Set<string>();
    this.readers.set(id, readers.add(key));
    const now = elapsedOf(this.clock); // a reuse window, not a date: a wall-clock step must not stretch it
    const read = this.reads.get(id);
    if (!read?.known) {
      if (read?.first) return read.first;
      const entry: ConfigMapRead = { at: now, known: false, refreshing: false };
      entry.first = this.get(namespace, name).then(
        (data) => {
          Object.assign(entry, { value: data, known: true, first: undefined });
          return data;
        },
        (error: unknown) => {
          // Nothing known yet: the next pass asks again.
          if (this.reads.get(id) === entry) this.reads.delete(id);
          throw error;
        },
      );
      this.reads.set(id, entry);
      return entry.first;
    }
    if (now - read.at >= CA_BUNDLE_REUSE_MS && !read.refreshing) {
      read.refreshing = true;
      this.get(namespace, name).then(
        (data) => Object.assign(read, { value: data, at: elapsedOf(this.clock), refreshing: false }),
        () => Object.assign(read, { refreshing: false }),
      );
    }
    return Promise.resolve(read.value);
  }

  private get(namespace: string, name: string): Promise<ConfigMapData> {
    return this.core.readNamespacedConfigMap({ namespace, name }).then(
      (configMap): ConfigMapData => configMap.data,
      (error: unknown): ConfigMapData => {
        if (isNotFound(error)) return undefined;
        throw error;
      },
    );
  }
}
