import type { OfferingType } from '@app/contracts/marketplace/offering-types';
import type { OrderState } from '@app/contracts/orders/order-views';

/**
 * The contracts' names the portal needs as values. The bundle loads no contracts module but the API
 * paths (eslint.config.mjs, vite.config.mjs), so these are copies, typed by the contracts' unions:
 * vocabulary.spec.ts fails when one differs from the contracts' constant of the same name.
 */
export const VMWARE_VM_TYPE = 'VMware.VirtualMachine' satisfies OfferingType;
export const BASIC_TYPE = 'Marketplace.Basic' satisfies OfferingType;

/** Waldur's terminal order states (the contracts' TERMINAL_ORDER_STATES). */
export const TERMINAL_ORDER_STATES: readonly OrderState[] = ['done', 'erred', 'canceled', 'rejected'];
