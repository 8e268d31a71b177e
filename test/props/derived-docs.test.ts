/**
 * The settings are documented once, on the framework-neutral inputs; what users see on the cdk8s props
 * and Pulumi args (editor hovers, the declarations) are those docs, carried by the derived types. Read
 * here through the TypeScript compiler, as an editor reads them.
 */
import { describe, expect, it } from '@jest/globals';
import * as path from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const entries = { cdk8s: 'lib/cdk8s/index.ts', pulumi: 'lib/pulumi/index.ts' };
const program = ts.createProgram(
  Object.values(entries).map((file) => path.join(root, file)),
  {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  },
);
const checker = program.getTypeChecker();

/** The doc of one field of an exported props or args type: its text and its `@default`. */
function fieldDoc(entry: keyof typeof entries, typeName: string, field: string): string {
  const module = checker.getSymbolAtLocation(program.getSourceFile(path.join(root, entries[entry]))!)!;
  const exported = checker.getExportsOfModule(module).find((s) => s.name === typeName)!;
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const property = checker.getDeclaredTypeOfSymbol(symbol).getProperty(field)!;
  const text = ts.displayPartsToString(property.getDocumentationComment(checker));
  const tags = property.getJsDocTags(checker).map((t) => `@${t.name} ${ts.displayPartsToString(t.text)}`);
  return [text, ...tags].join(' ');
}

describe('front-end props › docs written once reach both front ends', () => {
  it.each([
    [
      'QemuPoolProps',
      'QemuPoolArgs',
      'memory',
      'Guest memory, a Kubernetes quantity',
      "@default the runtime's default",
    ],
    [
      'ExporterSetProps',
      'ExporterSetArgs',
      'scaleDownCooldown',
      'How long surplus must last',
      '@default 5 minutes ("5m")',
    ],
    [
      'VirtualTargetClassProps',
      'VirtualTargetClassArgs',
      'bindingMode',
      '`WaitForFirstConsumer`',
      '@default "Immediate"',
    ],
    [
      'ExporterTemplateProps',
      'ExporterTemplateArgs',
      'drivers',
      'a missing `name` is derived',
      '@default none',
    ],
    [
      'ExporterSetControllerProps',
      'ExporterSetControllerArgs',
      'image',
      'The controller image.',
      '@default "exporter-set-controller:0.1.0"',
    ],
    [
      'ExporterSetControllerProps',
      'ExporterSetControllerArgs',
      'image',
      '',
      'docker build -f controller/Dockerfile -t exporter-set-controller:0.1.0 .',
    ],
  ])('%s and %s › %s', (props, args, field, text, tag) => {
    for (const doc of [fieldDoc('cdk8s', props, field), fieldDoc('pulumi', args, field)]) {
      expect(doc).toContain(text);
      expect(doc).toContain(tag);
    }
  });
});
