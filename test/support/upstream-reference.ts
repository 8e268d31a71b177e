/**
 * Upstream Jumpstarter's reference data (CRDs, samples, e2e manifests), which CI places beside the
 * repository in `../shared/upstream`. A clone with nothing beside it has none of it, and its tests
 * must still pass: they state upstream's schema as facts (upstream-facts.ts) and use fixtures of
 * our own. The comparisons with the reference run in addition, in {@link describeWithUpstream}
 * blocks, which are skipped, under a name that says why, when the data is absent — unless
 * `VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM=1` (CI sets it), which turns the absence into a failure.
 */
import { describe, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CustomResourceDefinition } from '../../lib/crds';
import { manifestsIn, readManifest, type Manifest } from '../crds/manifests';

export const UPSTREAM_DIR = path.resolve(process.cwd(), '../shared/upstream');
export const REQUIRE_UPSTREAM_ENV = 'VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM';

/** True when upstream's reference CRDs are beside the repository. */
export function upstreamAvailable(): boolean {
  return existsSync(path.join(UPSTREAM_DIR, 'crds'));
}

/** Whether the environment says the reference must be there (`VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM=1`). */
export function upstreamRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[REQUIRE_UPSTREAM_ENV] === '1';
}

/** What a run does with the reference tests: run them, skip them, or fail for want of the data. */
export function upstreamMode(available: boolean, required: boolean): 'run' | 'skip' | 'fail' {
  if (available) return 'run';
  return required ? 'fail' : 'skip';
}

/**
 * `describe(name, fn)` when the reference is at hand; otherwise a skipped describe named after the
 * reason, or (with VIRTUAL_EXPORTERS_REQUIRE_UPSTREAM=1) one failing test. `fn` must read the
 * reference only inside its tests or hooks, since a skipped describe still runs `fn` to list them.
 */
export function describeWithUpstream(name: string, fn: () => void): void {
  switch (upstreamMode(upstreamAvailable(), upstreamRequired())) {
    case 'run':
      describe(`${name} (reference in ../shared/upstream)`, fn);
      return;
    case 'skip':
      describe.skip(`${name} — skipped: no upstream reference data in ../shared/upstream`, fn);
      return;
    case 'fail':
      describe(name, () => {
        it(`needs upstream's reference data in ${UPSTREAM_DIR} (${REQUIRE_UPSTREAM_ENV}=1)`, () => {
          throw new Error(
            `${UPSTREAM_DIR} does not exist, and ${REQUIRE_UPSTREAM_ENV}=1 says these tests must run: ` +
              `place upstream's crds/, samples/ and e2e/ there, or unset ${REQUIRE_UPSTREAM_ENV}`,
          );
        });
      });
  }
}

/** Upstream's CRD of `kind` from the reference (call only where the reference is at hand). */
export function upstreamCrd(
  kind: 'ExporterSet' | 'VirtualTargetClass' | 'Exporter' | 'Lease',
): CustomResourceDefinition {
  const file = {
    ExporterSet: 'virtualtarget.jumpstarter.dev_exportersets.yaml',
    VirtualTargetClass: 'virtualtarget.jumpstarter.dev_virtualtargetclasses.yaml',
    Exporter: 'jumpstarter.dev_exporters.yaml',
    Lease: 'jumpstarter.dev_leases.yaml',
  }[kind];
  return readManifest<CustomResourceDefinition>(path.join(UPSTREAM_DIR, 'crds', file));
}

/** Upstream's samples and e2e manifests, `{file, manifest}` each (call only where the reference is at hand). */
export function upstreamExamples(): { file: string; manifest: Manifest }[] {
  return [...manifestsIn(path.join(UPSTREAM_DIR, 'samples')), ...manifestsIn(path.join(UPSTREAM_DIR, 'e2e'))];
}
