export * from './content-library';
export * from './rest-models';
export * from './rest-paths';
export * from './rest-session';
export * from './rest-session-registry';
export * from './rest-transport';
export * from './vapi-error';
export * from './vm-template';
