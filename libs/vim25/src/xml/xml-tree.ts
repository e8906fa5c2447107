import { XMLParser } from 'fast-xml-parser';
import { VIM_PARSER_OPTIONS } from './parser-options';
import { decodeEntities } from './xml-scanner';

/** An attribute with its namespace resolved (`ns` is '' for unprefixed attributes). */
export interface XmlAttr {
  readonly ns: string;
  readonly name: string;
  readonly value: string;
}

/** An element with its namespace resolved; `text` is its character content. */
export interface XmlElement {
  readonly ns: string;
  readonly name: string;
  readonly attrs: readonly XmlAttr[];
  readonly children: readonly XmlElement[];
  readonly text: string;
  /** Prefix → namespace URI in scope at this element (to resolve QName values like `xsd:int`). */
  readonly scope: ReadonlyMap<string, string>;
}

type RawNode = Record<string, unknown>;

function splitQName(qname: string): [string, string] {
  const i = qname.indexOf(':');
  return i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

function toElement(tag: string, node: RawNode, parentScope: ReadonlyMap<string, string>): XmlElement {
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  let scope = parentScope;
  for (const [key, value] of Object.entries(rawAttrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) {
      if (scope === parentScope) scope = new Map(parentScope);
      (scope as Map<string, string>).set(key === 'xmlns' ? '' : key.slice(6), decodeEntities(value));
    }
  }
  const attrs: XmlAttr[] = [];
  for (const [key, value] of Object.entries(rawAttrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
    const [prefix, name] = splitQName(key);
    attrs.push({
      ns: prefix === '' ? '' : (scope.get(prefix) ?? prefix),
      name,
      value: decodeEntities(value),
    });
  }
  const [prefix, name] = splitQName(tag);
  const children: XmlElement[] = [];
  let text = '';
  for (const child of (node[tag] ?? []) as RawNode[]) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) {
      for (const part of child['#cdata'] as RawNode[])
        text += typeof part['#text'] === 'string' ? part['#text'] : '';
    } else if (!('#comment' in child)) {
      const childTag = Object.keys(child).find((k) => k !== ':@');
      if (childTag !== undefined) children.push(toElement(childTag, child, scope));
    }
  }
  return { ns: scope.get(prefix) ?? prefix, name, attrs, children, text, scope };
}

const parser = new XMLParser(VIM_PARSER_OPTIONS);

/**
 * Parses an XML document into a namespace-resolved element tree (the root element): the general
 * path (faults, small answers). Large RetrievePropertiesEx answers stream through `decodeXml`
 * instead. Cost: one fast-xml-parser pass plus one walk. Throws on a document without a root element.
 */
export function parseXml(xml: string): XmlElement {
  const nodes = parser.parse(xml) as RawNode[];
  for (const node of nodes) {
    const tag = Object.keys(node).find((k) => k !== ':@' && !k.startsWith('#'));
    if (tag !== undefined)
      return toElement(tag, node, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]));
  }
  throw new SyntaxError('XML document has no root element');
}

/** The attribute `name` in namespace `ns` ('' = unprefixed), if present. Pure. */
export function attrOf(el: XmlElement, ns: string, name: string): string | undefined {
  return el.attrs.find((a) => a.ns === ns && a.name === name)?.value;
}

/** Resolves a QName attribute value (e.g. `xsd:int`) against the element's scope. Pure. */
export function resolveQName(el: XmlElement, qname: string): { ns: string; name: string } {
  const [prefix, name] = splitQName(qname.trim());
  return { ns: el.scope.get(prefix) ?? prefix, name };
}
