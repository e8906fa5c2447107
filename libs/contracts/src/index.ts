export * from './envelope';
export * from './topology';
export * from './orders/order-submitted.event';
export * from './orders/order-done.event';
export * from './orders/order-erred.event';
export * from './health/health.request';
export * from './requests/request-reply';
export * from './orders/order-requests';
