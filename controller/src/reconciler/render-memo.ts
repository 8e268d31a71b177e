/**
 * The config Secret each live instance should hold, rendered once per distinct input rather than once
 * per pass: rendering builds a YAML document per instance, which made up most of a pass's CPU time on
 * the path from a Lease event to the refill create. The memo is keyed by a digest of everything a render
 * reads (`SetRenderer.inputsOf`), so a change to any of it renders again. It keeps a digest of the
 * rendered data, and the Secret cache a digest of each config Secret's data (cache-views.ts
 * `secretCacheView`): when they match, the instance's config is in sync and no data is handed to the
 * planner; when they differ (drift, a rotated token) the instance is rendered again and the planner gets
 * the data to compare.
 *
 * Each pass of a set keeps only the instances it checks (an instance whose Exporter left is dropped);
 * `forget(key)` drops the set.
 */
import { NestingTooDeepError, type Exporter, type VirtualTargetClass } from 'virtual-exporters/internal';
import { cachedSecretDigest, secretDataDigest, type CachedSecret } from '../kube/cache-views';
import type { SecretView } from '../planner';
import type { SetRenderer } from './instance-render';

/** Digests of a rendered config Secret's inputs and of its data (undefined: not renderable). */
interface RenderedConfig {
  readonly inputs: string;
  readonly digest: string | undefined;
}

type SecretData = Readonly<Record<string, string>>;

/** The data an instance's config Secret should hold when the live one does not hold it already. */
export type DesiredConfig = (
  exporter: Exporter,
  live: CachedSecret | undefined,
) => Promise<SecretData | undefined>;

export class RenderMemo {
  /** set key → instance name → the last rendered config. */
  private readonly bySet = new Map<string, Map<string, RenderedConfig>>();

  /** One pass of the set `key` checking its instances' configs. */
  pass(key: string, cls: VirtualTargetClass, renderer: SetRenderer): DesiredConfig {
    const previous = this.bySet.get(key);
    const configs = new Map<string, RenderedConfig>();
    this.bySet.set(key, configs);
    return async (exporter, live) => {
      const name = exporter.metadata?.name ?? '';
      let inputs: string;
      try {
        inputs = await renderer.inputsOf(exporter, cls);
      } catch (error) {
        // A spec too deep to digest cannot be rendered either; the set's conditions report it (§3.19).
        if (error instanceof NestingTooDeepError) return undefined;
        throw error;
      }
      const liveDigest = live !== undefined ? cachedSecretDigest(live) : undefined;
      const known = previous?.get(name);
      if (known?.inputs === inputs) {
        configs.set(name, known);
        // In sync, or not renderable (only a missing Secret is repaired): nothing to compare.
        if (known.digest === undefined || known.digest === liveDigest) return undefined;
        // The live Secret differs from what these inputs render to: render again for the data.
      }
      let data: SecretData | undefined;
      try {
        const rendered = await renderer.render(name);
        data = (rendered.objects.find((o) => o.kind === 'Secret') as SecretView | undefined)?.data;
      } catch {
        // Not renderable now (token not issued yet, invalid parameters): only a missing Secret is repaired.
      }
      const digest = data !== undefined ? secretDataDigest(data) : undefined;
      configs.set(name, { inputs, digest: digest === liveDigest ? liveDigest : digest });
      return digest === liveDigest ? undefined : data;
    };
  }

  /** Drops what was rendered for the set `key`. */
  forget(key: string): void {
    this.bySet.delete(key);
  }
}
