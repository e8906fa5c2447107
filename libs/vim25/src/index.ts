// The vim25 (vSphere Web Services, SOAP) client, layered: soap → xml → types → methods →
// property → objects → task → session, with the inventory readers and VM operations on top.
export * from './soap';
export * from './xml';
export * from './types';
export * from './methods';
export * from './property';
export * from './objects';
export * from './task';
export * from './session';
export * from './inventory';
export * from './vm';
export * from './client';
export * from './rest';
