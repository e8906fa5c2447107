import type { XmlValue } from './decoder';

const NUMBER_TYPES = new Set([
  'int',
  'long',
  'short',
  'byte',
  'float',
  'double',
  'decimal',
  'integer',
  'unsignedInt',
  'unsignedLong',
  'unsignedShort',
  'unsignedByte',
]);

/** The XML Schema item type of the vim25 `ArrayOf*` types of primitives. */
export const ARRAY_ITEM_PRIMITIVE: Readonly<Record<string, string>> = {
  ArrayOfInt: 'int',
  ArrayOfLong: 'long',
  ArrayOfShort: 'short',
  ArrayOfByte: 'byte',
  ArrayOfFloat: 'float',
  ArrayOfDouble: 'double',
  ArrayOfBoolean: 'boolean',
};

/**
 * The value of a leaf typed `xsd:<xsdType>`: numbers and booleans converted, anything else (and
 * a number that does not parse) kept as text. Pure.
 */
export function decodePrimitive(xsdType: string, text: string): XmlValue {
  if (NUMBER_TYPES.has(xsdType)) {
    const n = Number(text.trim());
    return Number.isNaN(n) ? text : n;
  }
  if (xsdType === 'boolean') return text.trim() === 'true' || text.trim() === '1';
  return text;
}
