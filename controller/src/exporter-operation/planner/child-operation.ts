/**
 * A selector operation acts through children: one ExporterOperation per chosen instance, owned by the
 * parent, carrying its operation and parameters and what is left of its deadline.
 */
import { API_VERSION, Kinds, OperationLabels, type ExporterOperation } from 'virtual-exporters/internal';

/** The child of `parent` for instance `exporter`: `<parent>-<exporter>`, cut with a hash to 253. */
export function childOperationName(parent: string, exporter: string): string {
  const full = `${parent}-${exporter}`;
  if (full.length <= 253) return full;
  let hash = 0x811c9dc5;
  for (const c of full) hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0;
  const suffix = hash.toString(16).padStart(8, '0');
  return `${full.slice(0, 253 - suffix.length - 1).replace(/[-.]+$/, '')}-${suffix}`;
}

/** The child operation on one instance: the parent's operation and parameters, its remaining deadline. */
export function childOperation(
  parent: ExporterOperation,
  exporterName: string,
  name: string,
  now: number,
  start: number,
): ExporterOperation {
  const { spec } = parent;
  const remaining =
    spec.activeDeadlineSeconds !== undefined
      ? Math.max(1, Math.ceil((start + spec.activeDeadlineSeconds * 1000 - now) / 1000))
      : undefined;
  return {
    apiVersion: API_VERSION,
    kind: Kinds.ExporterOperation,
    metadata: {
      name,
      namespace: parent.metadata?.namespace ?? '',
      // The parent's name as a label (`kubectl get eop -l`), when it fits in a label value.
      ...((parent.metadata?.name ?? '').length <= 63
        ? { labels: { [OperationLabels.parent]: parent.metadata?.name ?? '' } }
        : {}),
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: Kinds.ExporterOperation,
          name: parent.metadata?.name ?? '',
          uid: parent.metadata?.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: {
      operation: spec.operation,
      exporterName,
      ...(spec.parameters !== undefined ? { parameters: spec.parameters } : {}),
      ...(remaining !== undefined ? { activeDeadlineSeconds: remaining } : {}),
    },
  };
}
