export * from './inventory';
export * from './mo-ref';
export * from './property';
export * from './service-content';
export * from './task-info';
export * from './virtual-machine';
export * from './vim-context';
