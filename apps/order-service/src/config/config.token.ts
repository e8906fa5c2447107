export const CONFIG = Symbol('OrderServiceConfig');
