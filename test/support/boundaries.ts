/**
 * Import rules between the folders and packages of the repository (README, Architecture), as data, and
 * the checker that lists every import breaking one. The checker takes parsed modules, so a test can
 * hand it a planted violation and see it fail.
 */
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import type { ModuleImport, SourceModule } from './module-imports';

export interface Boundary {
  /** The promise, as the test names it. */
  readonly name: string;
  /** Repository folders whose sources the rule constrains: `lib/core`. */
  readonly sources: readonly string[];
  /** Packages (`@kubernetes/client-node`, `node:fs`; subpaths included) and repository folders (`lib/provisioners`) they must not import. */
  readonly forbidden: readonly string[];
  /** Allow `import type` of a forbidden target (types leave nothing behind at run time). @default false */
  readonly typesAllowed?: boolean;
}

const builtins = new Set(builtinModules);

/** `fs` and `node:fs` are the same module. */
const normalised = (specifier: string) =>
  builtins.has(specifier.split('/')[0]) && !specifier.startsWith('node:') ? `node:${specifier}` : specifier;

export const isRelative = (specifier: string) =>
  specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');

const isBuiltin = (specifier: string) => normalised(specifier).startsWith('node:');

const within = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

/** The repository path a relative import reaches (without extension), or the specifier itself. */
export function importTarget(file: string, specifier: string): string {
  if (!isRelative(specifier)) return normalised(specifier);
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
}

/** The package an import names: `@scope/name` or `name`; undefined for relative and built-in imports. */
export function packageOf(specifier: string): string | undefined {
  if (isRelative(specifier) || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const describeImport = (module: SourceModule, found: ModuleImport) =>
  `${module.file}:${found.line} imports ${found.specifier}${found.typeOnly ? ' (types)' : ''}`;

/** Every import in `modules` that breaks `boundary`. */
export function boundaryViolations(modules: readonly SourceModule[], boundary: Boundary): string[] {
  const governed = modules.filter((m) => boundary.sources.some((folder) => within(m.file, folder)));
  return governed.flatMap((module) =>
    module.imports
      .filter((found) => !(found.typeOnly && boundary.typesAllowed))
      .filter((found) => {
        const target = importTarget(module.file, found.specifier);
        return boundary.forbidden.some((forbidden) => within(target, normalised(forbidden)));
      })
      .map((found) => describeImport(module, found)),
  );
}

/**
 * Relative imports of `modules` that reach outside `folders` (another package must be imported by
 * name); with `packagesToo`, imports of any package count as well.
 */
export function escapingImports(
  modules: readonly SourceModule[],
  folders: readonly string[],
  packagesToo = false,
): string[] {
  return modules.flatMap((module) =>
    module.imports
      .filter((found) => packagesToo || isRelative(found.specifier))
      .filter(
        (found) => !folders.some((folder) => within(importTarget(module.file, found.specifier), folder)),
      )
      .map((found) => describeImport(module, found)),
  );
}

/** Runtime imports of packages that `declared` (a package.json's dependencies) does not list. */
export function undeclaredImports(modules: readonly SourceModule[], declared: readonly string[]): string[] {
  return modules.flatMap((module) =>
    module.imports
      .filter((found) => !found.typeOnly)
      .filter((found) => {
        const name = packageOf(found.specifier);
        return name !== undefined && !declared.includes(name);
      })
      .map((found) => describeImport(module, found)),
  );
}
