import { scanXml, type XmlScanHandler } from './xml-scanner';

/** The scanner's events as strings: `<tag a=v/>`-like for opens, `</tag>`, `"text"`. */
function events(xml: string): string[] {
  const out: string[] = [];
  const handler: XmlScanHandler = {
    open: (tag, attrs, selfClosing) => {
      const pairs: string[] = [];
      for (let i = 0; i < attrs.length; i += 2) pairs.push(`${attrs[i]}=${attrs[i + 1]}`);
      out.push(`<${[tag, ...pairs].join(' ')}${selfClosing ? '/' : ''}>`);
    },
    close: (tag) => out.push(`</${tag}>`),
    text: (text) => out.push(JSON.stringify(text)),
  };
  scanXml(xml, handler);
  return out;
}

describe('scanXml', () => {
  it('reports tags, attributes in either quote with spaces around =, self-closing tags and text', () => {
    expect(
      events(`<?xml version="1.0" encoding="UTF-8"?>\n<a x = "1" y='two "q"'\n><b/><c z="3" />t</a>\n`),
    ).toEqual(['<a x=1 y=two "q">', '<b/>', '<c z=3/>', '"t"', '</a>']);
  });

  it('keeps prefixes as written (namespaces are resolved by the readers)', () => {
    expect(events('<s:E xmlns:s="urn:s"><v XMLSchema-instance:type="xsd:int">1</v></s:E>')).toEqual([
      '<s:E xmlns:s=urn:s>',
      '<v XMLSchema-instance:type=xsd:int>',
      '"1"',
      '</v>',
      '</s:E>',
    ]);
  });

  it('decodes entity and character references in text and attribute values, once', () => {
    expect(events('<a t="&lt;&amp;#65;&#x41;">&amp;amp; &#65;&#x263A; &gt;&quot;&apos;</a>')).toEqual([
      '<a t=<&#65;A>',
      JSON.stringify('&amp; A☺ >"\''),
      '</a>',
    ]);
  });

  it('passes CDATA literally, skips comments and processing instructions, and a BOM', () => {
    expect(events('\uFEFF<!-- <x> --><a>1<!-- c --><![CDATA[<&amp;>]]><?pi x?>2</a><!-- end -->')).toEqual([
      '<a>',
      '"1"',
      '"<&amp;>"',
      '"2"',
      '</a>',
    ]);
  });

  it('refuses markup that is not well formed, naming the offset', () => {
    const bad: [string, RegExp][] = [
      ['<a><b></a></b>', /<\/a> does not close <b> at offset 6/],
      ['<a><b>', /<b> is not closed/],
      ['<a></a><b></b>', /a second root element/],
      ['text<a/>', /text outside the root element/],
      ['', /no root element/],
      ['<a b></a>', /attribute b of <a> has no value/],
      ['<a b=1></a>', /attribute b of <a> is not quoted/],
      ['<a b="1></a>', /unterminated attribute b/],
      ['<a><!-- x </a>', /unterminated comment/],
      ['<a><![CDATA[x</a>', /unterminated CDATA/],
      ['<a></a', /unterminated end tag/],
      ['< a/>', /a tag without a name/],
    ];
    for (const [xml, message] of bad)
      expect(() => scanXml(xml, { open() {}, close() {}, text() {} })).toThrow(message);
  });

  it('refuses a DOCTYPE (no entity expansion attacks)', () => {
    const xml = '<!DOCTYPE a [<!ENTITY x "xxxxxxxx">]><a>&x;</a>';
    expect(() => events(xml)).toThrow(SyntaxError);
    expect(() => events(xml)).toThrow(/DOCTYPE/);
  });

  it('leaves an unknown entity as written (never expands it)', () => {
    expect(events('<a>&x; &amp</a>')).toEqual(['<a>', '"&x; &amp"', '</a>']);
  });
});
