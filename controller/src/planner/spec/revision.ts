/**
 * The template revision new instances get (SPEC §3.14): a hash of the template, the merged parameters,
 * the effective images and the class's scheduling, so any change to what an instance is built from
 * marks the existing ones outdated.
 */
import {
  NestingTooDeepError,
  mergeParameters,
  templateRevision,
  type ExporterSet,
  type Images,
  type RevisionInputs,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';

/** Set-level image entries replace class-level ones entry by entry (as the provisioners resolve them). */
export function effectiveImages(set: ExporterSet, cls: VirtualTargetClass): Images | undefined {
  const exporter = set.spec?.images?.exporter ?? cls.spec?.images?.exporter;
  const runtime = set.spec?.images?.runtime ?? cls.spec?.images?.runtime;
  if (exporter === undefined && runtime === undefined) return undefined;
  return { ...(exporter ? { exporter } : {}), ...(runtime ? { runtime } : {}) };
}

/** What instances of the set are built from, as the revision hash covers it (and a revision records it). */
export function revisionInputs(set: ExporterSet, cls: VirtualTargetClass): RevisionInputs {
  return {
    template: set.spec?.template,
    parameters: mergeParameters(cls.spec?.parameters, set.spec?.parameters),
    images: effectiveImages(set, cls),
    scheduling: cls.spec?.scheduling,
  };
}

/**
 * Undefined when the inputs are nested too deep to merge or hash (§3.19): the spec checks report it and
 * create nothing, and no instance counts as outdated against a revision that cannot be computed.
 */
export function currentRevision(set: ExporterSet, cls: VirtualTargetClass): string | undefined {
  try {
    return templateRevision(revisionInputs(set, cls));
  } catch (error) {
    if (error instanceof NestingTooDeepError) return undefined;
    throw error;
  }
}
