// Reads the framework-neutral inputs (lib/manifests), the cdk8s props (lib/cdk8s) and the facade's props
// (jsii/src) with the TypeScript checker and lists every field the facade has no counterpart for, at
// any depth, and every choice (string-literal union) the facade's enum lacks.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { ExporterSetControllerProps, LogLevel, ResourceClaim } from '../src';

export interface TypeRef {
  /** Path from the repository root. */
  readonly file: string;
  /** An exported interface or type alias of that file. */
  readonly name: string;
}

/** The repository root (jest runs the tests as ES modules: no __dirname). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Each framework-neutral input and cdk8s props type, and the facade struct that must cover it. */
export const PROP_PAIRS: readonly (readonly [TypeRef, TypeRef])[] = [
  [
    'lib/manifests/virtual-target-class.ts',
    'VirtualTargetClassOptions',
    'virtual-target-class.ts',
    'VirtualTargetClassProps',
  ],
  [
    'lib/cdk8s/virtual-target-class.ts',
    'VirtualTargetClassProps',
    'virtual-target-class.ts',
    'VirtualTargetClassProps',
  ],
  ['lib/manifests/exporter-set.ts', 'ExporterSetOptions', 'exporter-set.ts', 'ExporterSetProps'],
  ['lib/cdk8s/exporter-set.ts', 'ExporterSetProps', 'exporter-set.ts', 'ExporterSetProps'],
  ['lib/manifests/qemu-pool.ts', 'QemuPoolOptions', 'qemu-pool.ts', 'QemuPoolProps'],
  ['lib/cdk8s/qemu-pool.ts', 'QemuPoolProps', 'qemu-pool.ts', 'QemuPoolProps'],
  [
    'lib/manifests/installer.ts',
    'ExporterSetControllerInput',
    'exporter-set-controller.ts',
    'ExporterSetControllerProps',
  ],
  [
    'lib/manifests/exporter-operation.ts',
    'ExporterOperationOptions',
    'exporter-operation.ts',
    'ExporterOperationProps',
  ],
  [
    'lib/cdk8s/exporter-operation.ts',
    'ExporterOperationProps',
    'exporter-operation.ts',
    'ExporterOperationProps',
  ],
].map(([nf, nn, ff, fn]) => [
  { file: nf, name: nn },
  { file: `jsii/src/${ff}`, name: fn },
]);

/** A program over the library and the facade, with the repository's compiler options. */
export function programFor(): ts.Program {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const files = [...new Set(PROP_PAIRS.flat().map((r) => path.join(ROOT, r.file)))];
  return ts.createProgram([...files, path.join(ROOT, 'jsii/test/prop-coverage.ts')], {
    ...parsed.options,
    noEmit: true,
  });
}

function exportedType(program: ts.Program, ref: TypeRef): ts.Type {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(ROOT, ref.file));
  if (!source) throw new Error(`prop-coverage: ${ref.file} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === ref.name);
  if (!symbol) throw new Error(`prop-coverage: ${ref.file} exports no ${ref.name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

/** Value types whose inside is not a struct of props (cdk8s units, dates, the facade's small classes). */
const OPAQUE = new Set(['Date', 'Duration', 'Size', 'Cron', 'IntOrPercent', 'Operation']);

/**
 * Every neutral field the facade type lacks, as `<Neutral>.<path>: <why>`; structs are compared field by
 * field, arrays by their elements, string-literal unions against the facade enum's values. Maps (index
 * signatures), free-form JSON and scalars end the walk.
 */
export function missingFacadeFields(program: ts.Program, neutralRef: TypeRef, facadeRef: TypeRef): string[] {
  const checker = program.getTypeChecker();
  const problems: string[] = [];

  const strip = (t: ts.Type): ts.Type => checker.getNonNullableType(t);
  const element = (t: ts.Type): ts.Type =>
    checker.isArrayType(t) ? checker.getTypeArguments(t as ts.TypeReference)[0] : t;
  const isStruct = (t: ts.Type): boolean => {
    if (!(t.flags & ts.TypeFlags.Object) || checker.isArrayType(t)) return false;
    if (OPAQUE.has(t.getSymbol()?.name ?? t.aliasSymbol?.name ?? '')) return false;
    if (checker.getIndexInfosOfType(t).length > 0) return false;
    return checker.getPropertiesOfType(t).length > 0;
  };
  const literalChoices = (t: ts.Type): string[] | undefined => {
    const members = t.isUnion() ? t.types : [t];
    if (!members.every((m) => m.isStringLiteral())) return undefined;
    return members.map((m) => (m as ts.StringLiteralType).value).sort();
  };

  const walk = (neutral: ts.Type, facadeType: ts.Type, where: string, there: string, depth: number): void => {
    if (depth > 8) return;
    for (const prop of checker.getPropertiesOfType(neutral)) {
      const name = prop.getName();
      const counterpart = checker.getPropertyOfType(facadeType, name);
      if (!counterpart) {
        problems.push(`${where}.${name}: no ${there}.${name}`);
        continue;
      }
      const n = element(strip(checker.getTypeOfSymbol(prop)));
      const f = element(strip(checker.getTypeOfSymbol(counterpart)));
      const choices = literalChoices(n);
      if (choices && choices.length > 1) {
        const offered = literalChoices(f);
        const lacking = choices.filter((c) => !offered?.includes(c));
        if (lacking.length > 0) {
          problems.push(
            `${where}.${name}: ${there}.${name} lacks ${lacking.map((c) => JSON.stringify(c)).join(', ')}`,
          );
        }
      } else if (isStruct(n) && isStruct(f)) {
        walk(n, f, `${where}.${name}`, `${there}.${name}`, depth + 1);
      }
    }
  };
  walk(
    exportedType(program, neutralRef),
    exportedType(program, facadeRef),
    neutralRef.name,
    facadeRef.name,
    0,
  );
  return problems;
}

/**
 * A deliberately short controller props type (one pull policy and no resource claims), for the test
 * that proves the check fails when the facade falls behind.
 */
export interface ShortControllerProps extends Omit<
  ExporterSetControllerProps,
  'imagePullPolicy' | 'resources' | 'logLevel'
> {
  readonly imagePullPolicy?: 'IfNotPresent';
  readonly resources?: {
    readonly limits?: { [key: string]: string };
    readonly requests?: { [key: string]: string };
  };
  readonly logLevel?: LogLevel;
  readonly claim?: ResourceClaim;
}
