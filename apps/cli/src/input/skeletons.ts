import type { OpenStackType } from '@app/contracts/marketplace/offering-types';
import { OPENSTACK_ORDER_FIELDS } from '@app/contracts/marketplace/openstack-order-fields';
import { createOrderBody } from '@app/contracts/orders/orders.request';
import { VM_ORDER_ATTRIBUTE_NAMES, VM_ORDER_LIMIT_NAMES } from '@app/contracts/vsphere/vm-order-fields';
import { stringify } from 'yaml';

export type SkeletonFormat = 'json' | 'yaml';

/**
 * The order envelope, from the order body's schema: every field null (omitted when sent unless
 * filled), `accepting_terms_of_service` true, and the given attributes and limits.
 */
function envelope(
  attributes: Record<string, unknown>,
  limits: Record<string, unknown>,
): Record<string, unknown> {
  const skeleton: Record<string, unknown> = {};
  for (const key of Object.keys(createOrderBody.shape)) skeleton[key] = null;
  return { ...skeleton, type: 'Create', attributes, limits, accepting_terms_of_service: true };
}

/** `marketplace resource provision --generate-skeleton`: any offering type, a `{name, description}` stub. */
export function genericSkeleton(): Record<string, unknown> {
  return envelope({ name: null, description: null }, {});
}

/** `vmware vm provision --generate-skeleton`: a `VMware.VirtualMachine` order's typed attributes and limits. */
export function vmwareVmSkeleton(): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const name of VM_ORDER_ATTRIBUTE_NAMES)
    attributes[name] = name === 'networks' ? [{ url: null }] : null;
  const limits: Record<string, unknown> = {};
  for (const name of VM_ORDER_LIMIT_NAMES) limits[name] = null;
  return envelope(attributes, limits);
}

/**
 * `openstack tenant|instance|volume provision --generate-skeleton`: the type's typed attributes (a
 * list field as one item of nulls, sent only once filled in) and its limits.
 */
export function openstackSkeleton(type: OpenStackType): Record<string, unknown> {
  const fields = OPENSTACK_ORDER_FIELDS[type];
  // A copy: the layout of libs/contracts is shared and read-only.
  const attributes = structuredClone(fields.attributes) as Record<string, unknown>;
  const limits: Record<string, unknown> = {};
  for (const name of fields.limits) limits[name] = null;
  return envelope(attributes, limits);
}

export function renderSkeleton(skeleton: object, format: SkeletonFormat): string {
  if (format === 'json') return `${JSON.stringify(skeleton, null, 2)}\n`;
  return stringify(skeleton, { nullStr: 'null' });
}
