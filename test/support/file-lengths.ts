/**
 * Files too long to read in one sitting: a file holds one concept, and past a few hundred lines it
 * holds several. Counted as lines of text, comments included (they are read too).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface SourceText {
  /** Repository-relative: `controller/src/kube/informer.ts`. */
  readonly file: string;
  readonly text: string;
}

/** Lines of `text`; a final newline ends the last line rather than starting another. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Each of `sources` longer than `max` lines, as `file: N lines`, longest first. */
export function longFiles(sources: readonly SourceText[], max: number): string[] {
  return sources
    .map((source) => ({ file: source.file, lines: lineCount(source.text) }))
    .filter((source) => source.lines > max)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
    .map((source) => `${source.file}: ${source.lines} lines (at most ${max})`);
}

/** The text of each repository file in `files`. */
export function readSources(root: string, files: readonly string[]): SourceText[] {
  return files.map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
}
