/**
 * Field paths for validation issues, written the way the Kubernetes API server writes them
 * (`spec.template.spec.drivers[1].name`, `metadata.labels[kubernetes.io/arch]`), so a synth-time
 * error points at the same place as an admission error would.
 */

/** `parent.field`; a root (empty) parent gives just `field`. */
export function fieldPath(parent: string, field: string): string {
  return parent ? `${parent}.${field}` : field;
}

/** `parent[index]` for a list entry. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}

/** `parent[key]` for a map entry; keys such as `kubernetes.io/arch` stay readable. */
export function keyPath(parent: string, key: string): string {
  return `${parent}[${key}]`;
}
