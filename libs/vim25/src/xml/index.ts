export * from './decoder';
export * from './envelope-reader';
export * from './fault-reader';
export * from './parser-options';
export * from './values';
export * from './xml-tree';
