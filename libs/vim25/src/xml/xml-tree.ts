import { scanXml, type XmlScanHandler } from './xml-scanner';

export { decodeEntities } from './xml-scanner';

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

/** The element while its content is being read. */
interface OpenElement extends XmlElement {
  readonly children: XmlElement[];
  text: string;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const DOCUMENT_SCOPE: ReadonlyMap<string, string> = new Map([['xml', XML_NS]]);

function splitQName(qname: string): [string, string] {
  const i = qname.indexOf(':');
  return i < 0 ? ['', qname] : [qname.slice(0, i), qname.slice(i + 1)];
}

/**
 * Resolves the namespace declarations among `raw` (`[name, value, ...]` as scanned) on top of
 * `parent`: the parent's map itself when the element declares none (most elements), a copy
 * otherwise. Pure.
 */
export function scopeOf(
  raw: readonly string[],
  parent: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  let scope: Map<string, string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i];
    if (key === 'xmlns' || key.startsWith('xmlns:')) {
      scope ??= new Map(parent);
      scope.set(key === 'xmlns' ? '' : key.slice(6), raw[i + 1]);
    }
  }
  return scope ?? parent;
}

/** Builds the element tree from the scanner's events. */
class TreeBuilder implements XmlScanHandler {
  root: XmlElement | undefined;
  private readonly stack: OpenElement[] = [];

  open(tag: string, raw: string[], selfClosing: boolean): void {
    const parent = this.stack[this.stack.length - 1];
    const scope = scopeOf(raw, parent?.scope ?? DOCUMENT_SCOPE);
    const attrs: XmlAttr[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i];
      if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
      const [prefix, name] = splitQName(key);
      attrs.push({ ns: prefix === '' ? '' : (scope.get(prefix) ?? prefix), name, value: raw[i + 1] });
    }
    const [prefix, name] = splitQName(tag);
    const el: OpenElement = { ns: scope.get(prefix) ?? prefix, name, attrs, children: [], text: '', scope };
    if (parent === undefined) this.root = el;
    else parent.children.push(el);
    if (!selfClosing) this.stack.push(el);
  }

  close(): void {
    this.stack.pop();
  }

  text(text: string): void {
    this.stack[this.stack.length - 1].text += text;
  }
}

/**
 * Parses an XML document into a namespace-resolved element tree (the root element).
 * Cost: one scanner pass. Throws SyntaxError on a document that is not well formed.
 */
export function parseXml(xml: string): XmlElement {
  const builder = new TreeBuilder();
  scanXml(xml, builder);
  if (builder.root === undefined) throw new SyntaxError('XML document has no root element');
  return builder.root;
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
