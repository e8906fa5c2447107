export * from './console-operations';
export * from './device-diff';
export * from './disk-operations';
export * from './hardware-operations';
export * from './lifecycle-operations';
export * from './nic-operations';
export * from './power-operations';
export * from './run-task';
