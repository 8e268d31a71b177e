/**
 * Whether a field's JSDoc agrees with its CRD schema, the source of each field's meaning and default.
 *
 * Meaning: the CRD description's first sentence is the field's definition, what `kubectl explain`
 * and an editor's tooltip both show first. A JSDoc with text starts with that sentence; what follows
 * is its own audience's (a cdk8s `Duration`, how the builder writes the field). A JSDoc with no text
 * (tags only, or the bare marker `Ours.`) defers to the CRD. Compared after normalising what differs
 * only in typography: code quotes, whitespace, the case of the first letter, and an `Ours (...):`
 * marker, which says a field is an addition to upstream's schema rather than what it means. Equal
 * first sentences, not equal docs: the wire types speak to the controller's code, the options to
 * users in an editor, and each may add what its reader needs after the shared definition.
 *
 * Default: the CRD's `default`, else what its description says absence means (`absent means 10`,
 * `Absent: 1.`, `Unset: kept.`, `Newest (the default ...)`). A `@default` that is one value
 * (`10`, `"5m"`, `5 minutes ("5m")`, `false`) must equal the CRD's; one in words (`the class's
 * images`) may name no number the CRD's does not. An object's `@default` may list its fields'
 * defaults (`type "Proactive", maxUnavailable 1`), each checked against that field's.
 */
import type { JSONSchemaProps } from '../../lib/crds/schema';
import type { DocumentedField } from './field-docs';

type Literal = string | number | boolean;

interface CrdDefault {
  /** The default as one value, when it is one. */
  readonly value?: Literal;
  /** The words the description gives it in. */
  readonly words: string;
}

/** The first sentence of `text` (up to a full stop that is no abbreviation's). */
export function firstSentence(text: string): string {
  const end = /(?<!\b(?:e\.g|i\.e|etc|vs))\.(?:\s|$)/.exec(text);
  return end === null ? text.trim() : text.slice(0, end.index + 1).trim();
}

/** A sentence without its typography: see the module doc. */
export function normalised(sentence: string): string {
  const plain = sentence
    .replace(/^Ours(?: \([^)]*\))?[:.]\s*/, '')
    .replace(/[`"]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\.$/, '')
    .trim();
  return plain.charAt(0).toLowerCase() + plain.slice(1);
}

/** `10` → 10, `false` → false, `"5m"` or `5 minutes ("5m")` → '5m', a bare word → itself; else undefined. */
export function literalOf(text: string): Literal | undefined {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  const quoted = /^(?:[^"(]*\()?"([^"]*)"\)?$/.exec(trimmed);
  if (quoted) return quoted[1];
  return /^[A-Za-z][\w-]*$/.test(trimmed) && trimmed !== 'none' ? trimmed : undefined;
}

/** Numbers in `text` with their units (`25%`, `2m`, `10`), not those inside words (`p95`). */
const numbersIn = (text: string) => new Set(text.match(/(?<![\w.-])\d+(?:\.\d+)?[a-z%]*/g) ?? []);

/** The CRD's default for `schema`: its `default`, or what its description says absence means. */
export function crdDefault(schema: JSONSchemaProps): CrdDefault | undefined {
  if (schema.default !== undefined) {
    const value = schema.default as Literal;
    return { value, words: String(value) };
  }
  const description = schema.description ?? '';
  const phrase =
    /\((?:absent|unset)(?: means|:) ([^)]*)\)/i.exec(description) ??
    /\b(?:absent|unset)(?: or empty)?(?: means|:) (.*?)(?:[.;)](?:\s|$)|$)/i.exec(description) ??
    /(\w+) \(the default\b/.exec(description);
  if (phrase === null) return undefined;
  const words = phrase[1].trim();
  const value = /^[\w%-]+$/.test(words) ? literalOf(words) : undefined;
  return value === undefined ? { words } : { value, words };
}

/** Why `docDefault` disagrees with the CRD node `schema`, or undefined when it agrees. */
function defaultDisagreement(docDefault: string, schema: JSONSchemaProps): string | undefined {
  const crd = crdDefault(schema);
  const parts = docDefault.split(/,\s*/).map((part) => /^(\w+)\s+(.+)$/.exec(part));
  const nested = parts.filter((m) => m !== null && schema.properties?.[m[1]] !== undefined);
  if (crd === undefined && nested.length > 0) {
    const reasons = nested.flatMap((m) => {
      const why = defaultDisagreement(m![2], schema.properties![m![1]]);
      return why === undefined ? [] : [`${m![1]}: ${why}`];
    });
    return reasons.length === 0 ? undefined : reasons.join('; ');
  }
  const value = literalOf(docDefault);
  if (value !== undefined) {
    if (crd?.value === value) return undefined;
    return crd === undefined
      ? `@default ${docDefault}, but the CRD names no default`
      : `@default ${docDefault}, but the CRD's default is ${crd.words}`;
  }
  if (crd?.value !== undefined)
    return `@default ${docDefault}, but the CRD's default is ${JSON.stringify(crd.value)}`;
  const crdNumbers = numbersIn(crd?.words ?? '');
  const extra = [...numbersIn(docDefault)].filter((n) => !crdNumbers.has(n));
  if (extra.length === 0) return undefined;
  return `@default ${docDefault} names ${extra.join(', ')}, which the CRD's default (${crd?.words ?? 'none'}) does not`;
}

/**
 * What is wrong with `field`'s JSDoc against its CRD node; `requireDefault` when the reader of this
 * JSDoc sees no CRD (options of the builders, the cdk8s props and Pulumi args): then a field the CRD
 * defaults must say `@default`.
 */
export function docDisagreements(field: DocumentedField, requireDefault: boolean): string[] {
  const where = `${field.name} (${field.declaredAt}) against ${field.crdPath}`;
  const found: string[] = [];
  const definition = firstSentence(field.schema.description ?? '');
  const opening = normalised(firstSentence(field.text));
  if (opening !== '' && opening !== normalised(definition))
    found.push(`${where}: the doc should start with the CRD's "${definition}"`);
  if (field.defaultText !== undefined) {
    const why = defaultDisagreement(field.defaultText, field.schema);
    if (why !== undefined) found.push(`${where}: ${why}`);
  } else if (requireDefault && crdDefault(field.schema) !== undefined) {
    found.push(`${where}: no @default, but the CRD's default is ${crdDefault(field.schema)!.words}`);
  }
  return found;
}
