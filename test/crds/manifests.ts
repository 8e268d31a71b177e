/** Reading YAML manifests (multi-document) for the CRD tests. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Manifest = Record<string, unknown> & { apiVersion: string; kind: string };

/** The JEP-0014 examples, reconstructed as complete objects. */
export const JEP_FIXTURES_DIR = path.resolve(process.cwd(), 'test/fixtures/jep');
/** Our own objects in the style of upstream's samples and e2e manifests (named drivers, images, requests). */
export const UPSTREAM_STYLE_FIXTURES_DIR = path.resolve(process.cwd(), 'test/fixtures/upstream-style');

/** Every non-empty document of a YAML file, as plain JSON. */
export function readManifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null && typeof m === 'object');
}

/** `{file, manifest}` for every document of every `.yaml` file in `dir`, sorted by file name. */
export function manifestsIn(dir: string): { file: string; manifest: Manifest }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .flatMap((f) => readManifests(path.join(dir, f)).map((manifest) => ({ file: f, manifest })));
}

/** The first document of a YAML file (for upstream's single-document CRD files). */
export function readManifest<T = Manifest>(file: string): T {
  return readManifests(file)[0] as unknown as T;
}
