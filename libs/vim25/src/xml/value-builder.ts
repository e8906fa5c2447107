import { XSD_NS, XSI_NS } from '../soap/soap-envelope';
import { setField, type XmlValue } from './decoder';
import { NamespaceScope } from './namespace-scope';
import { ARRAY_ITEM_PRIMITIVE, decodePrimitive } from './primitive-values';
import { scanXml, type XmlScanHandler } from './xml-scanner';

/** One open element of the subtree being decoded (frames are reused between elements). */
interface Frame {
  /** Local name: the field name in the parent object. */
  key: string;
  /** Resolved `xsi:type` local name, if any. */
  xsiType: string | undefined;
  /** The `xsi:type` is an XML Schema primitive (`xsd:int`, ...). */
  primitive: boolean;
  /** Unprefixed `type` attribute: the element is a MoRef when it has no children. */
  moType: string | undefined;
  text: string;
  children: number;
  /** Fields of a data object, created at the first child. */
  obj: Record<string, XmlValue> | undefined;
  /** Field names that repeated (their value is the array of the repeats). */
  repeated: Set<string> | undefined;
  /** Items of an `ArrayOf*` value. */
  items: XmlValue[] | undefined;
  /** Item primitive of `ArrayOfInt` & co. */
  itemPrimitive: string | undefined;
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/** Sets or appends field `key` (a repeated element becomes an array, as in decodeElement). */
function addField(frame: Frame, key: string, value: XmlValue): void {
  const obj = (frame.obj ??= frame.xsiType === undefined ? {} : { _type: frame.xsiType });
  if (!Object.hasOwn(obj, key)) {
    setField(obj, key, value);
  } else if (frame.repeated?.has(key)) {
    (obj[key] as XmlValue[]).push(value);
  } else {
    obj[key] = [obj[key], value];
    (frame.repeated ??= new Set()).add(key);
  }
}

/** The value of a closed frame: the rules of `decodeElement`, applied without an element tree. */
function valueOf(f: Frame): XmlValue {
  if (f.primitive) return decodePrimitive(f.xsiType ?? '', f.text);
  if (f.moType !== undefined && f.children === 0) return { type: f.moType, value: f.text.trim() };
  if (f.items !== undefined) return f.items;
  if (f.children === 0)
    return f.xsiType !== undefined && f.text.trim() === '' ? { _type: f.xsiType } : f.text;
  return f.obj ?? {};
}

/**
 * Decodes one element's subtree straight from scanner events into an XmlValue, with exactly the
 * rules of `decodeElement` (xsi:type by namespace URI, MoRefs, `ArrayOf*`, repeats as arrays)
 * but no intermediate element tree: the fast path for RetrievePropertiesEx answers of
 * thousands of objects. The caller owns the namespace scope: it must `enter` each start tag's
 * attributes before `open` and `leave` them after `close`. Not reentrant; `reset` before reuse.
 */
export class ValueBuilder {
  private readonly frames: Frame[] = [];
  private depth = 0;
  private result: XmlValue | undefined;

  constructor(private readonly ns: NamespaceScope) {}

  /** True once the subtree's root element has closed; `value` then holds its value. */
  get done(): boolean {
    return this.depth === 0 && this.result !== undefined;
  }

  /** The decoded root, once `done`. */
  get value(): XmlValue | undefined {
    return this.result;
  }

  /** Forgets the last value (frames are kept for reuse). */
  reset(): void {
    this.depth = 0;
    this.result = undefined;
  }

  open(tag: string, raw: readonly string[], selfClosing: boolean): void {
    const f = this.frameAt(this.depth);
    f.key = localName(tag);
    f.xsiType = undefined;
    f.primitive = false;
    f.moType = undefined;
    f.text = '';
    f.children = 0;
    f.obj = undefined;
    f.repeated = undefined;
    f.items = undefined;
    f.itemPrimitive = undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i];
      if (name === 'type') {
        f.moType = raw[i + 1];
        continue;
      }
      const colon = name.indexOf(':');
      if (colon < 0 || name.length - colon !== 5 || !name.endsWith('type')) continue;
      if (this.ns.resolve(name.slice(0, colon)) !== XSI_NS) continue;
      const qname = raw[i + 1].trim();
      const c = qname.indexOf(':');
      const prefix = c < 0 ? '' : qname.slice(0, c);
      f.xsiType = c < 0 ? qname : qname.slice(c + 1);
      f.primitive = (this.ns.resolve(prefix) ?? prefix) === XSD_NS;
    }
    if (!f.primitive && f.xsiType !== undefined && f.xsiType.startsWith('ArrayOf')) {
      f.items = [];
      f.itemPrimitive = ARRAY_ITEM_PRIMITIVE[f.xsiType];
    }
    this.depth++;
    if (selfClosing) this.close();
  }

  text(text: string): void {
    this.frames[this.depth - 1].text += text;
  }

  close(): void {
    this.depth--;
    const f = this.frames[this.depth];
    const value = valueOf(f);
    if (this.depth === 0) {
      this.result = value;
      return;
    }
    const parent = this.frames[this.depth - 1];
    parent.children++;
    if (parent.items === undefined) addField(parent, f.key, value);
    else
      parent.items.push(
        parent.itemPrimitive === undefined ? value : decodePrimitive(parent.itemPrimitive, f.text),
      );
    // Let the finished subtree go with its parent, not with this reused frame.
    f.obj = undefined;
    f.items = undefined;
  }

  private frameAt(depth: number): Frame {
    let f = this.frames[depth];
    if (f === undefined) {
      f = {
        key: '',
        xsiType: undefined,
        primitive: false,
        moType: undefined,
        text: '',
        children: 0,
        obj: undefined,
        repeated: undefined,
        items: undefined,
        itemPrimitive: undefined,
      };
      this.frames[depth] = f;
    }
    return f;
  }
}

/** Feeds a whole document to a ValueBuilder, managing the namespace scope. */
class DocumentDecoder implements XmlScanHandler {
  private readonly ns = new NamespaceScope();
  private readonly declared: number[] = [];
  readonly builder = new ValueBuilder(this.ns);

  open(tag: string, raw: string[], selfClosing: boolean): void {
    const n = this.ns.enter(raw);
    this.builder.open(tag, raw, selfClosing);
    if (selfClosing) this.ns.leave(n);
    else this.declared.push(n);
  }

  close(): void {
    this.builder.close();
    this.ns.leave(this.declared.pop() ?? 0);
  }

  text(text: string): void {
    this.builder.text(text);
  }
}

/**
 * Decodes the root element of `xml` into an XmlValue in one pass, with the rules of
 * `decodeElement(parseXml(xml))` and the same result. Throws SyntaxError on XML that is not well
 * formed. Cost: one scanner pass, no element tree.
 */
export function decodeXml(xml: string): XmlValue {
  const decoder = new DocumentDecoder();
  scanXml(xml, decoder);
  const value = decoder.builder.value;
  if (value === undefined) throw new SyntaxError('XML document has no root element');
  return value;
}
