export * from './decoder';
export * from './envelope-reader';
export * from './fault-reader';
export * from './values';
export { decodeXml } from './value-builder';
export { scanXml, type XmlScanHandler } from './xml-scanner';
export * from './xml-tree';
