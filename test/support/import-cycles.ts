/**
 * Import cycles between the repository's own files. Relative imports are resolved to files (`x.ts` or
 * `x/index.ts`); type-only imports count, since a circle of types is still a circle a reader has to
 * break to understand either file. The strongly connected components of the graph (Tarjan) are the
 * circles; each is reported as short cycles through it, file by file, so the message says which import
 * to break.
 */
import { importTarget, isRelative } from './boundaries';
import type { SourceModule } from './module-imports';

/** The file among `files` a relative import of `file` reaches, or undefined (a package, a missing file). */
export function resolveImport(
  file: string,
  specifier: string,
  files: ReadonlySet<string>,
): string | undefined {
  if (!isRelative(specifier)) return undefined;
  const target = importTarget(file, specifier);
  const base = target.endsWith('.js') ? target.slice(0, -'.js'.length) : target;
  return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

/** Each file's imported files, without repeats, in name order. */
export function importGraph(modules: readonly SourceModule[]): Map<string, string[]> {
  const files = new Set(modules.map((m) => m.file));
  return new Map(
    modules.map((m) => {
      const targets = m.imports
        .map((found) => resolveImport(m.file, found.specifier, files))
        .filter((target): target is string => target !== undefined);
      return [m.file, [...new Set(targets)].sort()];
    }),
  );
}

/** The strongly connected components of `graph` (Tarjan's algorithm, iterative). */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const frames: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** A shortest cycle from `start` back to itself, through `within` only (breadth first). */
function shortestCycle(
  graph: ReadonlyMap<string, readonly string[]>,
  start: string,
  within: ReadonlySet<string>,
): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at];
    for (const target of graph.get(node) ?? []) {
      if (!within.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return [...path, start];
      }
      if (previous.has(target)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  return undefined;
}

/**
 * Every import cycle, as `a.ts → b.ts → a.ts`: for each circle (strongly connected component), short
 * cycles through it until each of its files is on one, so a large circle reads as the loops it is made of.
 */
export function importCycles(modules: readonly SourceModule[]): string[] {
  const graph = importGraph(modules);
  const components = stronglyConnected(graph).sort((a, b) => a[0].localeCompare(b[0]));
  return components.flatMap((component) => {
    const members = new Set(component);
    const looped = component.length > 1 || (graph.get(component[0]) ?? []).includes(component[0]);
    if (!looped) return [];
    const covered = new Set<string>();
    const cycles: string[] = [];
    for (const file of component) {
      if (covered.has(file)) continue;
      const cycle = shortestCycle(graph, file, members)!;
      cycle.forEach((member) => covered.add(member));
      cycles.push(cycle.join(' → '));
    }
    const circle = component.length > 2 ? `a circle of ${component.length} files: ` : '';
    return cycles.map((cycle) => `${circle}${cycle}`);
  });
}
