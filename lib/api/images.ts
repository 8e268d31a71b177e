export type ImagePullPolicy = 'Always' | 'Never' | 'IfNotPresent';

export interface ImageSpec {
  /** Container image reference, for example `quay.io/org/repo:tag`. */
  readonly image?: string;
  readonly imagePullPolicy?: ImagePullPolicy;
}

/** Image overrides on a class or set; set-level entries replace class-level ones. */
export interface Images {
  readonly exporter?: ImageSpec;
  readonly runtime?: ImageSpec;
}
