/**
 * Kubernetes' `apps/v1` ControllerRevision, as an ExporterSet records its revisions in it: an immutable
 * snapshot of what instances of one revision are built from, owned by the set.
 */
import type { ObjectMeta } from './meta';

export const CONTROLLER_REVISION_API_VERSION = 'apps/v1';
export const CONTROLLER_REVISION_KIND = 'ControllerRevision';

export interface ControllerRevision {
  readonly apiVersion: typeof CONTROLLER_REVISION_API_VERSION;
  readonly kind: typeof CONTROLLER_REVISION_KIND;
  readonly metadata: ObjectMeta;
  /** The recorded inputs (an ExporterSet's: `RevisionInputs`); Kubernetes refuses changes to it. */
  readonly data?: unknown;
  /** Increases with every revision the set records. */
  readonly revision: number;
}
