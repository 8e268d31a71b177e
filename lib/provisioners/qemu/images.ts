import { DefaultImages, type ImagePullPolicy, type ImageSpec, type Images } from '../../api';

export interface ResolvedImage {
  readonly image: string;
  readonly imagePullPolicy: ImagePullPolicy;
}

export interface ResolvedImages {
  readonly exporter: ResolvedImage;
  readonly runtime: ResolvedImage;
}

/**
 * The images of a Pod. Per entry (`exporter`, `runtime`), a set-level entry replaces the
 * class-level one as a whole: image and pull policy travel together, because a pull policy is chosen
 * for a particular image (e.g. `Always` for a moving tag). Fields the winning entry leaves out (or
 * leaves empty) take the defaults, never the other level's values. `defaultRuntime` is the
 * provisioner's runtime image (QEMU's unless given).
 */
export function resolveImages(
  classImages: Images | undefined,
  setImages: Images | undefined,
  defaultRuntime: string = DefaultImages.runtime,
): ResolvedImages {
  return {
    exporter: resolve(setImages?.exporter ?? classImages?.exporter, DefaultImages.exporter),
    runtime: resolve(setImages?.runtime ?? classImages?.runtime, defaultRuntime),
  };
}

function resolve(spec: ImageSpec | undefined, defaultImage: string): ResolvedImage {
  return {
    image: typeof spec?.image === 'string' && spec.image.length > 0 ? spec.image : defaultImage,
    imagePullPolicy:
      typeof spec?.imagePullPolicy === 'string' && spec.imagePullPolicy.length > 0
        ? spec.imagePullPolicy
        : DefaultImages.pullPolicy,
  };
}
