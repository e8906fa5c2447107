export * from './vim-context-factory';
