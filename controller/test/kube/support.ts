/**
 * Fixtures of the kube adapter tests: minimal valid objects of each kind the informers watch, and
 * polling for facts that become true once a watch event arrived.
 */
import type { V1Pod } from '@kubernetes/client-node';
import {
  API_VERSION,
  JUMPSTARTER_API_VERSION,
  Labels,
  type Exporter,
  type ExporterSet,
} from 'virtual-exporters/internal';

/** The set label, or an unrelated label when `set` is undefined. */
function labelsOf(set: string | undefined): Record<string, string> {
  return set !== undefined ? { [Labels.exporterSetName]: set } : { other: 'yes' };
}

export function exporterSet(name: string, namespace?: string): ExporterSet {
  return {
    apiVersion: API_VERSION,
    kind: 'ExporterSet',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    spec: {
      virtualTargetClassName: 'qemu',
      selector: { matchLabels: { pool: name } },
      template: { metadata: { labels: { pool: name } } },
    },
  } as unknown as ExporterSet;
}

/** An Exporter of set `set` (labelled like the controller's), or an unowned one. */
export function exporter(name: string, set?: string): Exporter {
  return {
    apiVersion: JUMPSTARTER_API_VERSION,
    kind: 'Exporter',
    metadata: { name, labels: labelsOf(set) },
    spec: {},
  } as Exporter;
}

export function pod(name: string, set?: string): V1Pod {
  return {
    metadata: { name, labels: labelsOf(set) },
    spec: { containers: [{ name: 'main', image: 'example:latest' }] },
  };
}

/** Polls `check` every 5 ms until it stops throwing (or `timeoutMs` passes). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

export const names = (objects: readonly { metadata?: { name?: string } }[]) =>
  objects.map((object) => object.metadata?.name).sort();
