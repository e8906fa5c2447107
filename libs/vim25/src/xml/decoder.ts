import { XSD_NS, XSI_NS } from '../soap/soap-envelope';
import { ARRAY_ITEM_PRIMITIVE, decodePrimitive } from './primitive-values';
import { attrOf, resolveQName, type XmlElement } from './xml-tree';

/** A ManagedObjectReference as decoded: `<x type="VirtualMachine">vm-42</x>`. */
export type DecodedMoRef = { readonly type: string; readonly value: string };

/**
 * A decoded vim25 value. Typed primitives (`xsd:int`, `xsd:boolean`, ...) become numbers and
 * booleans; untyped leaves stay strings (their schema type is known only to the caller); an
 * element with a `type` attribute is a MoRef; `ArrayOf*` values are arrays; a data object is an
 * `XmlObject` whose `_type` is its `xsi:type`. A child element that repeats becomes an array, a
 * single one does not: callers normalise with `asArray` where the schema says "array".
 */
export type XmlValue = string | number | boolean | DecodedMoRef | XmlObject | readonly XmlValue[];

/** A decoded data object; `_type` is its `xsi:type` when vCenter sent one. */
export interface XmlObject {
  readonly _type?: string;
  readonly [field: string]: XmlValue | undefined;
}

/**
 * The element's `xsi:type`, found by namespace URI, so that both `xsi:type` and vcsim's
 * `XMLSchema-instance:type` (namespace declared inline) are read. Returns the resolved name and
 * whether it is an XML Schema primitive. Pure.
 */
export function xsiTypeOf(el: XmlElement): { name: string; primitive: boolean } | undefined {
  const raw = attrOf(el, XSI_NS, 'type');
  if (raw === undefined) return undefined;
  const q = resolveQName(el, raw);
  return { name: q.name, primitive: q.ns === XSD_NS };
}

/** Decodes one element into an XmlValue (see XmlValue for the rules). Pure, linear in size. */
export function decodeElement(el: XmlElement): XmlValue {
  const xsiType = xsiTypeOf(el);
  if (xsiType?.primitive) return decodePrimitive(xsiType.name, el.text);
  const moType = attrOf(el, '', 'type');
  if (moType !== undefined && el.children.length === 0) return { type: moType, value: el.text.trim() };
  if (xsiType?.name.startsWith('ArrayOf')) {
    const itemType = ARRAY_ITEM_PRIMITIVE[xsiType.name];
    return el.children.map((c) => (itemType ? decodePrimitive(itemType, c.text) : decodeElement(c)));
  }
  if (el.children.length === 0) {
    // An enum value is never empty, so an empty element with a vim type is an empty object
    // (e.g. the InvalidLogin fault, which has no fields).
    if (xsiType !== undefined && el.text.trim() === '') return { _type: xsiType.name };
    return el.text;
  }
  const groups = new Map<string, XmlElement[]>();
  for (const child of el.children) {
    const group = groups.get(child.name);
    if (group) group.push(child);
    else groups.set(child.name, [child]);
  }
  const obj: Record<string, XmlValue> = {};
  if (xsiType !== undefined) obj._type = xsiType.name;
  for (const [name, group] of groups) {
    setField(obj, name, group.length === 1 ? decodeElement(group[0]) : group.map(decodeElement));
  }
  return obj;
}

/**
 * `obj[key] = value`, except that a field named `__proto__` (which a plain assignment would turn
 * into the object's prototype) is defined as an ordinary field. Mutates `obj`.
 */
export function setField(obj: Record<string, XmlValue>, key: string, value: XmlValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true });
  else obj[key] = value;
}
