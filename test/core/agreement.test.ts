/**
 * Synth time and admission say the same thing: the core validators (run by the constructs and the
 * controller) accept everything our CRDs accept among the JEP and upstream examples, and reject the
 * invalid variants with the same rule message the CRD's CEL rule gives.
 */
import { describe, expect, it } from '@jest/globals';
import { validateExporterSet, validateVirtualTargetClass } from '../../lib/core';
import { ADMISSION_CASES, testClusterErrors } from '../admission/cases';
import { describeWithUpstream, upstreamExamples } from '../support/upstream-reference';
import { JEP_FIXTURES_DIR, UPSTREAM_STYLE_FIXTURES_DIR, manifestsIn, type Manifest } from '../crds/manifests';

const ofOurKinds = ({ manifest }: { manifest: Manifest }) =>
  manifest.kind === 'ExporterSet' || manifest.kind === 'VirtualTargetClass';

const examples = [...manifestsIn(JEP_FIXTURES_DIR), ...manifestsIn(UPSTREAM_STYLE_FIXTURES_DIR)]
  .filter(ofOurKinds)
  .map(({ file, manifest }) => [`${file}: ${manifest.kind}`, manifest] as const);

/** What the core validator finds in an example (its status left out, as admission drops it). */
function coreIssues(manifest: Manifest) {
  const { status: _status, ...object } = manifest;
  return manifest.kind === 'ExporterSet' ? validateExporterSet(object) : validateVirtualTargetClass(object);
}

describeWithUpstream("core validation of upstream's samples and e2e manifests", () => {
  it('accepts every one', () => {
    const found = upstreamExamples().filter(ofOurKinds);
    expect(found.length).toBeGreaterThanOrEqual(10);
    expect(
      found.flatMap((m) => coreIssues(m.manifest).map((i) => `${m.file}: ${i.path}: ${i.message}`)),
    ).toEqual([]);
  });
});

describe('core validation agrees with admission', () => {
  it.each(examples)('accepts %s', (_label, manifest) => {
    expect(coreIssues(manifest)).toEqual([]);
  });

  /** Synth-time validation of a case's object: the validator of its kind. */
  const synthIssues = (object: Record<string, unknown>) =>
    object.kind === 'ExporterSet' ? validateExporterSet(object) : validateVirtualTargetClass(object);

  // The table's cases that pin what synth time says: admission's errors are checked in
  // test/crds/rejection.test.ts; here synth time refuses the same object with the same rule.
  const pinned = ADMISSION_CASES.filter((c) => c.synth).map((c) => [c.name, c] as const);

  // Every create of our kinds that admission admits, synth time admits too (but where the table says why not).
  const admitted = ADMISSION_CASES.filter(
    (c) =>
      !c.oldObject &&
      (c.object.kind === 'ExporterSet' || c.object.kind === 'VirtualTargetClass') &&
      c.errors.length === 0 &&
      !c.synth?.stricterThanTheCrd,
  ).map((c) => [c.name, c] as const);

  it.each(admitted)('accepts at synth time, as at admission: %s', (_name, c) => {
    expect(synthIssues(c.object)).toEqual([]);
  });

  it('has the cases of every kind of rule', () => {
    expect(pinned.length).toBeGreaterThanOrEqual(40);
  });

  it.each(pinned)('%s', (_name, c) => {
    const { path, message, stricterThanTheCrd } = c.synth!;
    if (stricterThanTheCrd) {
      // Admission admits it; synth time refuses it on purpose (the reason is in the table).
      expect(testClusterErrors(c)).toEqual([]);
      expect(synthIssues(c.object)).toContainEqual(expect.objectContaining({ path, message }));
      return;
    }
    const admission = testClusterErrors(c);
    // The same rule message at admission (a CEL rule) and at synth time; or, for a schema bound, the same path.
    if (typeof message === 'string' && path === undefined)
      expect(admission.map((e) => e.message)).toContain(message);
    if (path !== undefined) expect(admission.map((e) => e.path)).toContain(path);
    expect(synthIssues(c.object)).toContainEqual(
      expect.objectContaining({
        ...(path !== undefined ? { path } : {}),
        message: typeof message === 'string' ? message : expect.stringMatching(message),
      }),
    );
  });
});
