export * from './task-handle';
export * from './virtual-machine-object';
