/**
 * A small, single-pass XML scanner for vim25 answers (SAX-like: it calls a handler per start tag,
 * end tag and text run). It exists because fast-xml-parser, whose generic tree our decoder then
 * walked a second time, was most of the client's decode time (measured in bench/README.md).
 *
 * It reads what vCenter and vcsim send: elements, attributes in either quote, character and the
 * five predefined entity references, CDATA, comments, processing instructions and the XML
 * declaration. It refuses a DOCTYPE (vCenter never sends one, and entity expansion is a known
 * attack) and mismatched or unclosed tags, with a SyntaxError naming the offset.
 * Namespaces are not resolved here: tag and attribute names arrive as written (`prefix:name`).
 */

/** The events of one document, in document order. */
export interface XmlScanHandler {
  /**
   * A start tag. `attrs` alternates raw names and entity-decoded values
   * (`[name0, value0, name1, value1, ...]`); it is a fresh array the handler may keep.
   * `selfClosing` tags get no `close` call.
   */
  open(tag: string, attrs: string[], selfClosing: boolean): void;
  /** The end tag of the innermost open element. */
  close(tag: string): void;
  /** A run of character data (entity-decoded; CDATA sections literal). Never empty. */
  text(text: string): void;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML character and predefined entity references in one pass. Pure. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_m, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref];
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

const GT = 62; // >
const SLASH = 47; // /
const BANG = 33; // !
const QUESTION = 63; // ?
const EQ = 61; // =
const DQUOTE = 34;
const SQUOTE = 39;

/** Space, tab, CR, LF: the XML whitespace characters. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function fail(message: string, at: number): never {
  throw new SyntaxError(`${message} at offset ${at}`);
}

/** Index just past the end of the name that starts at `from` (ends at space, `/`, `>`, `=`). */
function nameEnd(xml: string, from: number): number {
  let i = from;
  for (;;) {
    const c = xml.charCodeAt(i);
    if (isSpace(c) || c === SLASH || c === GT || c === EQ || Number.isNaN(c)) return i;
    i++;
  }
}

function skipSpace(xml: string, from: number): number {
  let i = from;
  while (isSpace(xml.charCodeAt(i))) i++;
  return i;
}

/** Reads a start tag from `lt` (at its `<`); returns the index after its `>`. */
function scanStartTag(xml: string, lt: number, handler: XmlScanHandler, stack: string[]): number {
  const end = nameEnd(xml, lt + 1);
  if (end === lt + 1) fail('XML: a tag without a name', lt);
  const tag = xml.slice(lt + 1, end);
  const attrs: string[] = [];
  let i = end;
  for (;;) {
    i = skipSpace(xml, i);
    const c = xml.charCodeAt(i);
    if (c === GT) {
      handler.open(tag, attrs, false);
      stack.push(tag);
      return i + 1;
    }
    if (c === SLASH && xml.charCodeAt(i + 1) === GT) {
      handler.open(tag, attrs, true);
      return i + 2;
    }
    const nEnd = nameEnd(xml, i);
    if (nEnd === i) fail(`XML: malformed start tag <${tag}>`, i);
    const name = xml.slice(i, nEnd);
    i = skipSpace(xml, nEnd);
    if (xml.charCodeAt(i) !== EQ) fail(`XML: attribute ${name} of <${tag}> has no value`, i);
    i = skipSpace(xml, i + 1);
    const quote = xml.charCodeAt(i);
    if (quote !== DQUOTE && quote !== SQUOTE) fail(`XML: attribute ${name} of <${tag}> is not quoted`, i);
    const close = xml.indexOf(quote === DQUOTE ? '"' : "'", i + 1);
    if (close < 0) fail(`XML: unterminated attribute ${name} of <${tag}>`, i);
    attrs.push(name, decodeEntities(xml.slice(i + 1, close)));
    i = close + 1;
  }
}

/** Reads `<!--`, `<![CDATA[` or refuses `<!DOCTYPE`; returns the index after it. */
function scanBang(xml: string, lt: number, handler: XmlScanHandler, inElement: boolean): number {
  if (xml.startsWith('<!--', lt)) {
    const end = xml.indexOf('-->', lt + 4);
    if (end < 0) fail('XML: unterminated comment', lt);
    return end + 3;
  }
  if (xml.startsWith('<![CDATA[', lt)) {
    const end = xml.indexOf(']]>', lt + 9);
    if (end < 0) fail('XML: unterminated CDATA section', lt);
    if (!inElement) fail('XML: CDATA outside the root element', lt);
    if (end > lt + 9) handler.text(xml.slice(lt + 9, end));
    return end + 3;
  }
  return fail('XML: DOCTYPE and other declarations are not accepted', lt);
}

/**
 * Scans `xml` from start to end, calling `handler` per event. Throws SyntaxError on markup that
 * is not well formed (mismatched, unclosed or unnamed tags, unterminated constructs, a DOCTYPE,
 * text or a second element outside the root). Cost: one pass, linear in the length.
 */
export function scanXml(xml: string, handler: XmlScanHandler): void {
  const stack: string[] = [];
  let rootSeen = false;
  let pos = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const len = xml.length;
  while (pos < len) {
    const lt = xml.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > pos) {
      if (stack.length > 0) handler.text(decodeEntities(xml.slice(pos, textEnd)));
      else if (xml.slice(pos, textEnd).trim() !== '') fail('XML: text outside the root element', pos);
    }
    if (lt < 0) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === SLASH) {
      const gt = xml.indexOf('>', lt + 2);
      if (gt < 0) fail('XML: unterminated end tag', lt);
      const tag = xml.slice(lt + 2, gt).trimEnd();
      const open = stack.pop();
      if (open !== tag) fail(`XML: </${tag}> does not close <${open ?? ''}>`, lt);
      handler.close(tag);
      pos = gt + 1;
    } else if (c === BANG) {
      pos = scanBang(xml, lt, handler, stack.length > 0);
    } else if (c === QUESTION) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) fail('XML: unterminated processing instruction', lt);
      pos = end + 2;
    } else {
      if (stack.length === 0 && rootSeen) fail('XML: a second root element', lt);
      rootSeen = true;
      pos = scanStartTag(xml, lt, handler, stack);
    }
  }
  if (stack.length > 0) fail(`XML: <${stack[stack.length - 1]}> is not closed`, len);
  if (!rootSeen) fail('XML: no root element', len);
}
