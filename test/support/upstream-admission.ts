/**
 * Admission of what we write by upstream's CRDs: the upstream-strict variants (lib/crds), the CRDs
 * made from the fact table, and — where they are at hand — upstream's own CRDs. An object passes when
 * it is admitted with no error (schema, every CEL rule), nothing pruned and nothing changed by
 * defaulting (our builders write the defaults out).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  upstreamStrictExporterSetCrd,
  upstreamStrictVirtualTargetClassCrd,
  type CustomResourceDefinition,
} from '../../lib/crds';
import { admit } from './crd-validator';
import { EXPORTER_SET_FACTS, VIRTUAL_TARGET_CLASS_FACTS, crdFromFacts } from './upstream-facts';
import { upstreamCrd } from './upstream-reference';

/** The CRD of each kind upstream defines, by kind. */
export type CrdsByKind = Readonly<Record<'ExporterSet' | 'VirtualTargetClass', CustomResourceDefinition>>;

export const UPSTREAM_STRICT_CRDS: CrdsByKind = {
  ExporterSet: upstreamStrictExporterSetCrd,
  VirtualTargetClass: upstreamStrictVirtualTargetClassCrd,
};

export const FACT_TABLE_CRDS: CrdsByKind = {
  ExporterSet: crdFromFacts(EXPORTER_SET_FACTS),
  VirtualTargetClass: crdFromFacts(VIRTUAL_TARGET_CLASS_FACTS),
};

/** Upstream's own CRDs (call only where the reference is at hand). */
export function referenceCrds(): CrdsByKind {
  return { ExporterSet: upstreamCrd('ExporterSet'), VirtualTargetClass: upstreamCrd('VirtualTargetClass') };
}

type KubeObject = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };

/** The objects of `objects` that are of a kind upstream defines (in its API group). */
export function upstreamKindObjects<T extends KubeObject>(objects: readonly T[]): T[] {
  return objects.filter(
    (o) =>
      o.apiVersion === 'virtualtarget.jumpstarter.dev/v1alpha1' &&
      (o.kind === 'ExporterSet' || o.kind === 'VirtualTargetClass'),
  );
}

/** One line per object that `crds` do not admit unchanged; empty when all pass. */
export function admissionProblems(objects: readonly KubeObject[], crds: CrdsByKind): string[] {
  const problems: string[] = [];
  for (const object of upstreamKindObjects(objects)) {
    const crd = crds[object.kind as keyof CrdsByKind];
    const name = `${object.kind} ${object.metadata?.namespace ?? ''}/${object.metadata?.name}`;
    const result = admit(crd, object);
    for (const e of result.errors) problems.push(`${name}: ${e.path || '<root>'}: ${e.message}`);
    for (const p of result.pruned) problems.push(`${name}: ${p}: pruned (upstream has no such field)`);
    if (result.errors.length === 0 && !isDeepStrictEqual(result.object, object)) {
      problems.push(`${name}: changed by admission (a default not written out)`);
    }
  }
  return problems;
}
