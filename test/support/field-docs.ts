/**
 * The JSDoc of TypeScript interfaces' fields, read with the compiler, walked beside the CRD schema the
 * fields stand for: each field present in both comes out with its doc text, its `@default` and the CRD
 * node. Interfaces may rename or reshape a field (`credentialsSecretName` for
 * `credentialsSecretRef.name`): `renames` maps a field's path in the interface to its path in the CRD.
 */
import * as path from 'node:path';
import ts from 'typescript';
import type { JSONSchemaProps } from '../../lib/crds/schema';

export interface DocumentedField {
  /** `ExporterSetOptions.updateStrategy.maxSurge`: the interface the walk started from, then the path. */
  readonly name: string;
  /** Where the field is declared, repository-relative, with its line: `lib/api/exporter-set.ts:140`. */
  readonly declaredAt: string;
  /** The doc text without its tags; '' when there is none. */
  readonly text: string;
  /** The `@default` tag's text, if any. */
  readonly defaultText?: string;
  /** The CRD path: `spec.updateStrategy.maxSurge`, `spec.schedules[].timeZone`. */
  readonly crdPath: string;
  readonly schema: JSONSchemaProps;
}

export interface DocumentedInterface {
  /** Repository-relative file that declares the interface. */
  readonly file: string;
  readonly name: string;
  /** The CRD node the interface's fields are the properties of (the `spec` schema). */
  readonly schema: JSONSchemaProps;
  /** Interface path → CRD path (relative to `schema`), for fields named or nested differently. */
  readonly renames?: Readonly<Record<string, string>>;
}

/** A program over `files`, compiled as the repository compiles them. */
export function docProgram(root: string, files: readonly string[]): ts.Program {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(
    files.map((file) => path.join(root, file)),
    { ...parsed.options, noEmit: true },
  );
}

/** The CRD node at `crdPath` under `schema` (`a.b[].c`), or undefined. */
function schemaAt(schema: JSONSchemaProps, crdPath: string): JSONSchemaProps | undefined {
  let node: JSONSchemaProps | undefined = schema;
  for (const part of crdPath.split('.')) {
    if (node === undefined) return undefined;
    const [field, ...items] = part.split('[]');
    node = node.properties?.[field];
    for (let i = 0; i < items.length && node !== undefined; i++) node = node.items as JSONSchemaProps;
  }
  return node;
}

function interfaceType(program: ts.Program, root: string, target: DocumentedInterface): ts.Type {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(root, target.file));
  const declaration = source?.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === target.name,
  );
  if (!declaration) throw new Error(`${target.file} declares no interface ${target.name}`);
  return checker.getTypeAtLocation(declaration.name);
}

/** Every field of `target` (nested ones too) that its CRD schema also has, with its docs. */
export function documentedFields(
  program: ts.Program,
  root: string,
  target: DocumentedInterface,
): DocumentedField[] {
  const checker = program.getTypeChecker();
  const found: DocumentedField[] = [];
  const walk = (type: ts.Type, tsPath: string, crdPath: string, depth: number): void => {
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.declarations?.[0];
      if (!declaration) continue;
      const file = path.relative(root, declaration.getSourceFile().fileName).split(path.sep).join('/');
      if (!file.startsWith('lib/')) continue; // a type of another package documents itself
      const fieldTsPath = tsPath === '' ? property.name : `${tsPath}.${property.name}`;
      const fieldCrdPath =
        target.renames?.[fieldTsPath] ?? (crdPath === '' ? property.name : `${crdPath}.${property.name}`);
      const schema = schemaAt(target.schema, fieldCrdPath);
      if (schema === undefined) continue;
      const line = declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1;
      const tag = property.getJsDocTags(checker).find((t) => t.name === 'default');
      found.push({
        name: `${target.name}.${fieldTsPath}`,
        declaredAt: `${file}:${line}`,
        text: ts.displayPartsToString(property.getDocumentationComment(checker)).trim(),
        ...(tag ? { defaultText: ts.displayPartsToString(tag.text).trim() } : {}),
        crdPath: `spec.${fieldCrdPath}`,
        schema,
      });
      if (depth >= 4) continue;
      let fieldType = checker.getNonNullableType(checker.getTypeOfSymbol(property));
      let nestedCrdPath = fieldCrdPath;
      const element =
        schema.type === 'array' ? checker.getIndexTypeOfType(fieldType, ts.IndexKind.Number) : undefined;
      if (element) {
        fieldType = element;
        nestedCrdPath = `${fieldCrdPath}[]`;
      }
      const nested = schemaAt(target.schema, nestedCrdPath);
      if (nested?.properties && fieldType.getFlags() & ts.TypeFlags.Object)
        walk(fieldType, fieldTsPath, nestedCrdPath, depth + 1);
    }
  };
  walk(interfaceType(program, root, target), '', '', 0);
  return found;
}
