// Persistence is imported by path (`@app/platform/persistence/data-source`): the stateless gateway never loads TypeORM.
export * from './config/load-config';
export * from './config/base-config';
export * from './config/redact';
export * from './logging/json-logger';
export * from './config/read-config-or-exit';
