/**
 * Pod fault injection for the kubelet simulator: which Pods crash or never become ready. A rule
 * selects Pods by namespace, name and/or image (any container or init container running exactly that
 * image) and is consulted when a Pod boots, so it also applies to Pods created after it was added.
 */
import type { KubeObject } from '../types';
import { imagesOf } from './pod-status';

/** Every given field must match. */
export interface PodMatch {
  readonly namespace?: string;
  readonly name?: string;
  /** Exact image reference, e.g. `quay.io/jumpstarter-dev/jumpstarter:latest`. */
  readonly image?: string;
}

export type PodFault =
  /**
   * The regular containers exit with code 1 and the Pod fails: at boot, never ready (no
   * `afterReadyMs`), or `afterReadyMs` of cluster time after it became ready (the exporter process
   * is then lost, not gracefully stopped).
   */
  | { readonly kind: 'crash'; readonly afterReadyMs?: number; readonly message?: string }
  /** The Pod runs but never becomes ready; its exporter never registers. */
  | { readonly kind: 'never-ready' };

export interface PodFaultRule {
  readonly match: PodMatch;
  readonly fault: PodFault;
  /** How many Pods it may still hit; `undefined` = every matching Pod. */
  remaining?: number;
}

export function matchesPod(match: PodMatch, pod: KubeObject): boolean {
  if (match.namespace !== undefined && match.namespace !== pod.metadata.namespace) return false;
  if (match.name !== undefined && match.name !== pod.metadata.name) return false;
  if (match.image !== undefined && !imagesOf(pod).includes(match.image)) return false;
  return true;
}

/** The first rule (oldest first) matching the Pod, consuming one of its `remaining` hits. */
export function takeFault(rules: PodFaultRule[], pod: KubeObject): PodFault | undefined {
  const rule = rules.find((r) => (r.remaining === undefined || r.remaining > 0) && matchesPod(r.match, pod));
  if (rule === undefined) return undefined;
  if (rule.remaining !== undefined) rule.remaining -= 1;
  return rule.fault;
}

/** Adds a rule for at most `times` Pods (every matching Pod without it); returns its removal. */
export function addFaultRule(
  rules: PodFaultRule[],
  match: PodMatch,
  fault: PodFault,
  times?: number,
): () => void {
  const rule: PodFaultRule = { match, fault, ...(times !== undefined ? { remaining: times } : {}) };
  rules.push(rule);
  return () => {
    const index = rules.indexOf(rule);
    if (index >= 0) rules.splice(index, 1);
  };
}
