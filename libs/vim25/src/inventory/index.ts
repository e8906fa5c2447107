export * from './compute-readers';
export * from './device-mapper';
export * from './storage-network-readers';
export * from './vm-readers';
export * from './snapshot-tree';
