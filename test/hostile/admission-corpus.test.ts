/**
 * The hostile-input corpus at admission (issue 7): every malformed or adversarial object in
 * corpus.ts is refused by the test cluster's API server with exactly the 422 a Kubernetes API server
 * sends for our CRDs (schema, defaults, CEL rules, ObjectMeta rules), and the ExporterSets and
 * classes among them are refused at synth time as well, so a GitOps repository never holds one.
 * The messages are kube-apiserver v1.37's: test/admission/real-server.kube.test.ts sends every case to
 * a real one and compares. Hostile objects that admission lets through are the controller's to report:
 * controller/test/hostile/hostile-lab.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { jumpstarterCrds, ourCrds } from '../../lib/crds';
import { validateExporterOperation, validateExporterSet, validateVirtualTargetClass } from '../../lib/core';
import {
  createRegistry,
  createStore,
  type KubeObject,
  type MemoryStore,
  type ResourceType,
} from 'virtual-exporters-test-cluster';
import { CORPUS, NS, type HostileCase, type Resource, type Write } from './corpus';

const registry = createRegistry([...ourCrds, ...jumpstarterCrds]);
const type = (group: string, plural: string): ResourceType => registry.get(group, 'v1alpha1', plural)!;
const TYPES: Record<Resource, ResourceType> = {
  exporterSets: type('virtualtarget.jumpstarter.dev', 'exportersets'),
  classes: type('virtualtarget.jumpstarter.dev', 'virtualtargetclasses'),
  exporters: type('jumpstarter.dev', 'exporters'),
  leases: type('jumpstarter.dev', 'leases'),
  operations: type('virtualtarget.jumpstarter.dev', 'exporteroperations'),
};

/** One write of a case, through the store: it throws the API server's error when admission refuses it. */
function write(store: MemoryStore, w: Write): void {
  if (w.verb === 'create') store.create(TYPES[w.resource], NS, w.object as KubeObject);
  else if (w.verb === 'replace')
    store.update(TYPES[w.resource], NS, w.object.metadata.name, w.object as KubeObject);
  else store.patch(TYPES[w.resource], NS, w.name, 'merge', w.patch, w.subresource);
}

/** The error the writes end with, from a fresh store (cases that write twice start clean). */
function refusal(c: HostileCase): { code: number; reason: string; message: string } | undefined {
  const store = createStore({ registry, namespaces: [NS] });
  try {
    for (const w of c.writes) write(store, w);
    return undefined;
  } catch (error) {
    const { code, reason, message } = error as { code: number; reason: string; message: string };
    return { code, reason, message };
  } finally {
    store.close();
  }
}

describe('hostile objects at admission', () => {
  it('has at least 50 cases, each about one change', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CORPUS.map((c) => `${c.kind} ${c.what}`)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [`${c.kind}: ${c.what}`, c] as const))('refuses %s', (_name, c) => {
    expect(refusal(c)).toEqual({ code: 422, reason: 'Invalid', message: c.message });
    if (c.object) {
      const validate =
        c.kind === 'ExporterSet'
          ? validateExporterSet
          : c.kind === 'ExporterOperation'
            ? validateExporterOperation
            : validateVirtualTargetClass;
      expect(validate(c.object).length).toBeGreaterThan(0);
    }
  });
});
