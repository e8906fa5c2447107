import type { X2jOptions } from 'fast-xml-parser';

/**
 * fast-xml-parser settings for vim25 responses: document order kept (namespace declarations
 * must be seen before the elements that use them), attributes kept with their prefixes, no
 * value guessing (the decoder types values from `xsi:type`), text untrimmed, and entities left
 * alone so that `xml-tree` decodes them in one pass (no double decoding of `&amp;#65;`).
 */
export const VIM_PARSER_OPTIONS: Partial<X2jOptions> = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: false,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
};
