import { describe, expect, it } from '@jest/globals';
import { parseXml } from './xml';

// The chart tests rely on this parser to reject malformed documents; it must.
describe('the test XML parser', () => {
  it('reads elements, attributes and entities', () => {
    const root = parseXml('<?xml version="1.0"?>\n<a x="1 &amp; 2"><b/>t&#60;<c y="&quot;"></c></a>\n');
    expect(root.name).toBe('a');
    expect(root.attributes.x).toBe('1 & 2');
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.text).toBe('t<');
    expect(root.children[1].attributes.y).toBe('"');
  });

  it.each([
    ['<a><b></a>', 'mismatched tag'],
    ['<a>', 'unclosed'],
    ['<a>x & y</a>', 'bare ampersand'],
    ['<a x="<"/>', 'angle bracket in an attribute'],
    ['<a x="1" x="2"/>', 'duplicate attribute'],
    ['<a/><b/>', 'two roots'],
    ['<a x=1/>', 'unquoted attribute'],
    ['<a>&nbsp;</a>', 'unknown entity'],
    ['text', 'no root'],
  ])('rejects %s (%s)', (source) => {
    expect(() => parseXml(source)).toThrow();
  });
});
