export * from './session-registry';
export * from './vim-session';
