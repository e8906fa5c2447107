import type { DecodedMoRef, XmlObject, XmlValue } from './decoder';

/** Normalises a possibly-single, possibly-absent value to an array (one-element arrays). Pure. */
export function asArray(v: XmlValue | undefined): readonly XmlValue[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? (v as readonly XmlValue[]) : [v];
}

/** True when `v` is a decoded `{ type, value }` ManagedObjectReference. Pure. */
export function isMoRef(v: XmlValue | undefined): v is DecodedMoRef {
  if (typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return (
    keys.length === 2 &&
    typeof (v as XmlObject).type === 'string' &&
    typeof (v as XmlObject).value === 'string'
  );
}

/** `v` as a data object, or undefined when it is a scalar, MoRef, array or absent. Pure. */
export function asObject(v: XmlValue | undefined): XmlObject | undefined {
  if (typeof v !== 'object' || Array.isArray(v) || isMoRef(v)) return undefined;
  return v as XmlObject;
}

/** `v` as a MoRef, or undefined. Pure. */
export function asMoRef(v: XmlValue | undefined): DecodedMoRef | undefined {
  return isMoRef(v) ? v : undefined;
}

/** `v` as a string (numbers and booleans are stringified), or undefined. Pure. */
export function asString(v: XmlValue | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** `v` as a finite number (untyped leaves arrive as strings), or undefined. Pure. */
export function asNumber(v: XmlValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** `v` as a boolean (`true`/`1`), or undefined. Pure. */
export function asBoolean(v: XmlValue | undefined): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string')
    return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
  return undefined;
}

/** Follows a dotted path through nested data objects (`'summary.config.name'`). Pure. */
export function pathOf(v: XmlValue | undefined, path: string): XmlValue | undefined {
  let cur = v;
  for (const part of path.split('.')) cur = asObject(cur)?.[part];
  return cur;
}
