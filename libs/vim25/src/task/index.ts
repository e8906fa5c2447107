export * from './wait-for-task';
