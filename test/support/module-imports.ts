/**
 * The imports of TypeScript sources, read with the compiler's parser rather than a regex, so multi-line
 * imports, `export … from`, `import type`, `import()`, `require()` and `typeof import()` are all seen.
 * An import is type-only when nothing of it survives compilation: the architecture tests allow those
 * where a runtime import would cross a boundary.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export interface ModuleImport {
  /** As written: `../provisioners/provisioner`, `virtual-exporters/internal`, `node:fs`. */
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

export interface SourceModule {
  /** Repository-relative, with forward slashes: `lib/core/validate-references.ts`. */
  readonly file: string;
  readonly imports: readonly ModuleImport[];
}

const allTypeOnly = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
  elements.length > 0 && elements.every((element) => element.isTypeOnly);

function importIsTypeOnly(clause: ts.ImportClause | undefined): boolean {
  if (clause === undefined) return false; // `import 'x'` runs x
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    allTypeOnly(named.elements)
  );
}

function exportIsTypeOnly(declaration: ts.ExportDeclaration): boolean {
  if (declaration.isTypeOnly) return true;
  const clause = declaration.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && allTypeOnly(clause.elements);
}

/** Every import in `text`, in source order. */
export function parseImports(text: string, fileName = 'module.ts'): ModuleImport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: ModuleImport[] = [];
  const add = (literal: ts.Node, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ specifier: literal.text, typeOnly, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importIsTypeOnly(node.importClause));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier)
      add(node.moduleSpecifier, exportIsTypeOnly(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(callee) && callee.text === 'require';
      if (dynamic || required) add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `.ts` sources under `dir` (declarations excluded), repository-relative. */
export function sourceFiles(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, rel);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The sources under each of `dirs`, with their imports. */
export function readModules(root: string, dirs: readonly string[]): SourceModule[] {
  return dirs.flatMap((dir) =>
    sourceFiles(root, dir).map((file) => ({
      file,
      imports: parseImports(fs.readFileSync(path.join(root, file), 'utf8'), file),
    })),
  );
}
