/**
 * The offering types of this marketplace and the components each bills by. Waldur's names:
 * `VMware.VirtualMachine` (a vSphere VM, provisioned by the vSphere adapter), `Marketplace.Basic`
 * (processed by hand by the provider) and the three OpenStack types.
 */
export const VMWARE_VM_TYPE = 'VMware.VirtualMachine';
export const BASIC_TYPE = 'Marketplace.Basic';
export const OPENSTACK_TENANT_TYPE = 'OpenStack.Tenant';
export const OPENSTACK_INSTANCE_TYPE = 'OpenStack.Instance';
export const OPENSTACK_VOLUME_TYPE = 'OpenStack.Volume';
export const OPENSTACK_TYPES = [
  OPENSTACK_TENANT_TYPE,
  OPENSTACK_INSTANCE_TYPE,
  OPENSTACK_VOLUME_TYPE,
] as const;
export type OpenStackType = (typeof OPENSTACK_TYPES)[number];
export const OFFERING_TYPES = [VMWARE_VM_TYPE, BASIC_TYPE, ...OPENSTACK_TYPES] as const;
export type OfferingType = (typeof OFFERING_TYPES)[number];

/**
 * Types whose orders no adapter carries out: they wait for the provider's approval, and the provider
 * completes or fails them by hand (`set_state_done`, `set_state_erred`). This system has no OpenStack
 * backend, so OpenStack offerings are processed by hand as `Marketplace.Basic` ones are.
 */
export const HAND_PROCESSED_TYPES: readonly string[] = [BASIC_TYPE, ...OPENSTACK_TYPES];

export function isHandProcessed(offeringType: string): boolean {
  return HAND_PROCESSED_TYPES.includes(offeringType);
}

export const OFFERING_STATES = ['Draft', 'Active', 'Paused', 'Archived'] as const;
export type OfferingState = (typeof OFFERING_STATES)[number];

/**
 * A billed dimension of an offering. Limits are stored in the component's base unit (MiB for RAM
 * and disk, as Waldur stores them); a price is per `measured_unit`, which is `factor` base units.
 */
export interface ComponentDefinition {
  type: string;
  name: string;
  measured_unit: string;
  billing_type: 'limit';
  factor: number;
}

/** Waldur's vSphere components: CPU per vCPU, RAM per GB, Disk per GB (limits in MiB). */
export const VMWARE_COMPONENTS: readonly ComponentDefinition[] = [
  { type: 'cpu', name: 'CPU', measured_unit: 'vCPU', billing_type: 'limit', factor: 1 },
  { type: 'ram', name: 'RAM', measured_unit: 'GB', billing_type: 'limit', factor: 1024 },
  { type: 'disk', name: 'Disk', measured_unit: 'GB', billing_type: 'limit', factor: 1024 },
];

export function componentsOf(type: OfferingType): readonly ComponentDefinition[] {
  return type === VMWARE_VM_TYPE ? VMWARE_COMPONENTS : [];
}

/**
 * The monthly cost of `limits` under `prices` (per measured unit), in the plan's currency, as a
 * decimal string with two places. Unknown limit keys cost nothing; missing prices are 0.
 */
export function monthlyEstimate(
  components: readonly ComponentDefinition[],
  prices: Readonly<Record<string, string>>,
  limits: Readonly<Record<string, number>>,
): string {
  // Cents as integers of the smallest price unit would need a decimal library; prices carry at
  // most 4 decimals here and limits are integers, so scaled BigInt arithmetic stays exact.
  const SCALE = 10_000n;
  let total = 0n; // in 1/SCALE of a currency unit, times factor
  let totalDivisor = 1n;
  for (const component of components) {
    const limit = limits[component.type];
    if (limit === undefined) continue;
    const [whole, fraction = ''] = (prices[component.type] ?? '0').split('.');
    const price = BigInt(whole) * SCALE + BigInt(fraction.padEnd(4, '0').slice(0, 4));
    const factor = BigInt(component.factor);
    // total/totalDivisor + price*limit/factor, on a common divisor
    total = total * factor + price * BigInt(limit) * totalDivisor;
    totalDivisor *= factor;
  }
  const cents = (total * 100n + (SCALE * totalDivisor) / 2n) / (SCALE * totalDivisor);
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}
