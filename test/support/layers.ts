/**
 * Layer folders that import one way: under a root folder, the subfolders named in a given order, then
 * the root's own files as the last layer. A file may import its own layer or earlier ones (type-only
 * imports count: the order is about reading, not only about what runs). A file in a folder that is no
 * layer breaks the rule too, so the tree shows every stage.
 */
import * as path from 'node:path';
import { importTarget, isRelative } from './boundaries';
import type { SourceModule } from './module-imports';

export interface LayerRule {
  /** Repository folder whose subfolders are the layers: `controller/src/planner`. */
  readonly root: string;
  /** Its subfolders, earliest first; deeper folders count as the layer they are in. */
  readonly layers: readonly string[];
}

/** The layer a repository path under `rule.root` belongs to: its index, or undefined outside the layers. */
function layerOf(rule: LayerRule, target: string): number | undefined {
  const relative = path.posix.relative(rule.root, target);
  if (relative.startsWith('..')) return undefined;
  const parts = relative.split('/');
  const layer = rule.layers.indexOf(parts[0]); // `../model` reaches the model folder's index
  if (layer >= 0) return layer;
  return parts.length === 1 ? rule.layers.length : undefined; // the root's own files, its index
}

const nameOf = (rule: LayerRule, layer: number) =>
  layer === rule.layers.length ? `the top of ${rule.root}` : rule.layers[layer];

const under = (file: string, folder: string) => file.startsWith(`${folder}/`);

/**
 * Every layer that holds no file (the tree would not show that stage), every file under `rule.root`
 * outside the layers, and every import that reaches a later layer.
 */
export function layerViolations(modules: readonly SourceModule[], rule: LayerRule): string[] {
  const governed = modules.filter((m) => under(m.file, rule.root));
  const empty = rule.layers
    .filter((layer) => !governed.some((m) => under(m.file, `${rule.root}/${layer}`)))
    .map((layer) => `${rule.root}/${layer} holds no file: the tree does not show this stage`);
  return [
    ...empty,
    ...governed.flatMap((module) => {
      const own = layerOf(rule, module.file);
      if (own === undefined)
        return [`${module.file} is in no layer of ${rule.root} (${rule.layers.join(', ')})`];
      return module.imports.flatMap((found) => {
        if (!isRelative(found.specifier)) return []; // a package, never a layer
        const target = importTarget(module.file, found.specifier);
        if (!under(`${target}/`, rule.root)) return [];
        const reached = layerOf(rule, target);
        if (reached === undefined || reached <= own) return [];
        return [
          `${module.file}:${found.line} imports ${found.specifier}${found.typeOnly ? ' (types)' : ''}: ` +
            `${nameOf(rule, reached)} comes after ${nameOf(rule, own)}`,
        ];
      });
    }),
  ];
}
