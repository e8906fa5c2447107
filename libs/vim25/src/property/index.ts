export * from './container-view';
export * from './retrieve';
export * from './wait-for-updates';
export * from './update-feed';
