/** Image overrides (`images.exporter`, `images.runtime`), shared by classes and sets. */
import type { ImagePullPolicy } from '../api';
import type { IssueCollector } from './issue-collector';
import { fieldPath } from './path';

export const IMAGE_PULL_POLICIES: readonly ImagePullPolicy[] = ['Always', 'Never', 'IfNotPresent'];

export function checkImages(issues: IssueCollector, value: unknown, path: string): void {
  const images = issues.object(value, path);
  if (!images) return;
  for (const role of ['exporter', 'runtime'] as const) {
    const rolePath = fieldPath(path, role);
    const spec = issues.object(images[role], rolePath);
    if (!spec) continue;
    issues.string(spec.image, fieldPath(rolePath, 'image'));
    issues.oneOf(spec.imagePullPolicy, fieldPath(rolePath, 'imagePullPolicy'), IMAGE_PULL_POLICIES);
  }
}
