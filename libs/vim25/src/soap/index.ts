export * from './guarded-connector';
export * from './soap-encoder';
export * from './soap-envelope';
export * from './soap-transport';
export * from './vim-errors';
export * from './xml-escape';
