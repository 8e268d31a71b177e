/**
 * A strict parser for the XML subset the lab's SVG uses (declaration, elements, double-quoted
 * attributes, text, character and the five predefined entity references), so tests check that the
 * chart is well-formed and read its structure without an XML dependency. It throws on anything
 * malformed: unclosed or mismatched tags, a bare `&` or `<`, duplicate attributes, several roots.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  if (text.includes('<')) throw new Error(`'<' in text or attribute near ${where}`);
  return text.replace(/&([^;\s]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new Error(`bare '&' near ${where}`);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    const entity = ENTITIES[ref];
    if (entity === undefined) throw new Error(`unknown entity &${ref}; near ${where}`);
    return entity;
  });
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i])) i++;
  };
  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  interface Open {
    name: string;
    attributes: Record<string, string>;
    children: XmlElement[];
    text: string;
  }
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  const close = (element: Open) => {
    const done: XmlElement = { ...element };
    if (stack.length > 0) stack[stack.length - 1].children.push(done);
    else if (root !== undefined) throw new Error('more than one root element');
    else root = done;
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const text = source.slice(i, lt < 0 ? source.length : lt);
    if (stack.length === 0) {
      if (text.trim() !== '') throw new Error(`text outside the root element near ${i}`);
    } else {
      stack[stack.length - 1].text += decode(text, i);
    }
    if (lt < 0) break;
    i = lt + 1;
    if (source[i] === '/') {
      i++;
      const name = NAME.exec(source.slice(i))?.[0];
      if (!name) throw new Error(`bad closing tag near ${i}`);
      i += name.length;
      skipSpace();
      if (source[i] !== '>') throw new Error(`expected '>' near ${i}`);
      i++;
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      close(open);
      continue;
    }
    const name = NAME.exec(source.slice(i))?.[0];
    if (!name) throw new Error(`bad tag near ${i}`);
    i += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith('/>', i)) {
        i += 2;
        close({ name, attributes, children: [], text: '' });
        break;
      }
      if (source[i] === '>') {
        i++;
        stack.push({ name, attributes, children: [], text: '' });
        break;
      }
      if (i === before) throw new Error(`expected whitespace before an attribute near ${i}`);
      const attribute = NAME.exec(source.slice(i))?.[0];
      if (!attribute) throw new Error(`bad attribute near ${i}`);
      i += attribute.length;
      if (source[i] !== '=' || source[i + 1] !== '"') throw new Error(`expected ="..." near ${i}`);
      const end = source.indexOf('"', i + 2);
      if (end < 0) throw new Error(`unterminated attribute near ${i}`);
      if (attribute in attributes) throw new Error(`duplicate attribute ${attribute} near ${i}`);
      attributes[attribute] = decode(source.slice(i + 2, end), i);
      i = end + 1;
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

/** Every element below `element` (depth first) for which `predicate` holds. */
export function findAll(element: XmlElement, predicate: (e: XmlElement) => boolean): XmlElement[] {
  return element.children.flatMap((child) => [
    ...(predicate(child) ? [child] : []),
    ...findAll(child, predicate),
  ]);
}

/** The text of an element and its descendants. */
export function textOf(element: XmlElement): string {
  return element.text + element.children.map(textOf).join('');
}
