/**
 * The typed fields of a `VMware.VirtualMachine` Create order, with Waldur's names (MPV's create
 * processor copies these attributes to the VM; the components are its limits, in MiB for ram and
 * disk). Links (`template`, `cluster`, `datastore`, `folder`) are URLs or uuids; `networks` is a list
 * of `{url}`. What the order body's `attributes` and `limits` hold for this offering type; the
 * vSphere adapter validates them (`vsphere.orders.validate`), `waldur-cli vmware vm provision
 * --generate-skeleton` lays them out.
 */
export const VM_ORDER_ATTRIBUTE_NAMES = [
  'name',
  'description',
  'template',
  'cores_per_socket',
  'cluster',
  'datastore',
  'folder',
  'networks',
] as const;
export type VmOrderAttributeName = (typeof VM_ORDER_ATTRIBUTE_NAMES)[number];

/** The offering's components: vCPU count, RAM and disk in MiB. */
export const VM_ORDER_LIMIT_NAMES = ['cpu', 'ram', 'disk'] as const;
export type VmOrderLimitName = (typeof VM_ORDER_LIMIT_NAMES)[number];
