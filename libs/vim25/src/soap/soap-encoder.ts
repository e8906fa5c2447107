import { assertXmlName, escapeXml } from './xml-escape';

/**
 * A value the encoder can write as vim25 XML. Objects keep their key order (vim25 data objects
 * are XSD sequences, and vCenter checks the order); `_type` becomes `xsi:type`; an object with
 * exactly the keys `type` and `value` is a ManagedObjectReference; `undefined`/`null` are omitted;
 * arrays repeat the element. The decoder (`xml/`) produces values of the same shape, so a device
 * read from vCenter can be sent back as it came.
 */
export type SoapValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | { readonly type: string; readonly value: string }
  | SoapObject
  | readonly SoapValue[];

/** A vim25 data object as written on the wire; `_type` is its xsi:type. */
export interface SoapObject {
  readonly [field: string]: SoapValue;
}

/** True for a `{ type, value }` ManagedObjectReference. Pure. */
export function isMoRefShape(v: unknown): v is { type: string; value: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const o = v as Record<string, unknown>;
  return keys.length === 2 && typeof o.type === 'string' && typeof o.value === 'string';
}

function encodeScalar(v: string | number | boolean): string {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`cannot encode ${v} as a vim25 number`);
    return String(v);
  }
  return typeof v === 'boolean' ? String(v) : escapeXml(v);
}

/**
 * Writes one field as XML (`<name ...>...</name>`, repeated for arrays, nothing when unset).
 * Pure, cost proportional to the value's size.
 */
export function encodeField(name: string, value: SoapValue): string {
  if (value === undefined || value === null) return '';
  const tag = assertXmlName(name);
  if (Array.isArray(value)) {
    return (value as readonly SoapValue[]).map((item) => encodeField(name, item)).join('');
  }
  if (typeof value !== 'object') return `<${tag}>${encodeScalar(value)}</${tag}>`;
  if (isMoRefShape(value)) {
    return `<${tag} type="${escapeXml(value.type)}">${escapeXml(value.value)}</${tag}>`;
  }
  const obj = value as SoapObject;
  const xsiType = typeof obj._type === 'string' ? ` xsi:type="${escapeXml(obj._type)}"` : '';
  let inner = '';
  for (const [key, child] of Object.entries(obj)) {
    if (key !== '_type') inner += encodeField(key, child);
  }
  return `<${tag}${xsiType}>${inner}</${tag}>`;
}
