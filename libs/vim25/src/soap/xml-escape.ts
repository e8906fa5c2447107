// XML 1.0 cannot carry most C0 control characters at all, even escaped: refuse them instead of
// sending a request that vCenter would reject with an unhelpful parse fault.
function hasForbiddenChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) return true;
  }
  return false;
}
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Escapes text for an XML element body or attribute value (`&`, `<`, `>`, `"`, `'`).
 * Pure, no I/O. Throws a TypeError for characters that XML 1.0 cannot represent.
 */
export function escapeXml(text: string): string {
  if (hasForbiddenChar(text)) {
    throw new TypeError('text contains a control character that XML 1.0 cannot carry');
  }
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Checks that `name` is a plain XML element name (no prefix, nothing to escape). Pure. */
export function assertXmlName(name: string): string {
  if (!NAME.test(name)) {
    throw new TypeError(`not a valid XML element name: ${JSON.stringify(name)}`);
  }
  return name;
}
