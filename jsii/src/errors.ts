import type { Construct } from 'constructs';

/** The id of the library construct each facade construct builds as its only child. */
export const DEFAULT_CHILD_ID = 'Default';

/**
 * Builds the library construct under `facade`. An invalid-props error names the inner construct's path
 * (`.../Default`); it is re-thrown naming the facade's, so the sentence is the one the TypeScript
 * construct gives for the same app: `[<path>] invalid <Kind>: <prop>=<value>: <rule>`.
 */
export function buildInner<T>(facade: Construct, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    const inner = `[${facade.node.path}/${DEFAULT_CHILD_ID}]`;
    if (!err.message.startsWith(inner)) throw err;
    const renamed = new Error(`[${facade.node.path}]${err.message.slice(inner.length)}`);
    renamed.stack = err.stack;
    throw renamed;
  }
}
