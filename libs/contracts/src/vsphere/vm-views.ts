import { z } from 'zod';

export const RUNTIME_STATES = ['POWERED_ON', 'POWERED_OFF', 'SUSPENDED'] as const;
export type VmRuntimeState = (typeof RUNTIME_STATES)[number];

/**
 * Waldur's resource states of a VM, disk or network adapter: OK at rest, UPDATING (CREATING,
 * DELETING for a device) while an operation on it runs, ERRED when vCenter refused the last one
 * (its message in `error_message`; the next successful operation or pull makes it OK again).
 */
export const VM_STATES = ['OK', 'UPDATING', 'ERRED'] as const;
export type VmState = (typeof VM_STATES)[number];
export const DEVICE_STATES = ['CREATING', 'OK', 'UPDATING', 'DELETING', 'ERRED'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** Waldur's ToolsStates, from vim25's `guest.toolsRunningStatus`. */
export const TOOLS_STATES = ['STARTING', 'RUNNING', 'NOT_RUNNING'] as const;
export type ToolsState = (typeof TOOLS_STATES)[number];

export const PORT_RUNTIME_STATES = ['CONNECTED', 'NOT_CONNECTED'] as const;

const timestamps = {
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
};

/**
 * A disk of a VM (Waldur's `vmware-disks`). `backend_id` is vCenter's device key ("2000"), empty
 * while the disk is being created or when vCenter never created it (then DELETE only removes the
 * row: the seed's Destroy). MiB.
 */
export const diskViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  size: z.number().int(),
  state: z.enum(DEVICE_STATES),
  error_message: z.string(),
  backend_id: z.string(),
  vm_uuid: z.string(),
  ...timestamps,
});
export type DiskView = z.infer<typeof diskViewSchema>;

/** A network adapter of a VM (Waldur's `vmware-ports`); `backend_id` as for disks ("4000"). */
export const portViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  mac_address: z.string(),
  network_uuid: z.uuid().nullable(),
  network_name: z.string(),
  runtime_state: z.enum(PORT_RUNTIME_STATES),
  state: z.enum(DEVICE_STATES),
  error_message: z.string(),
  backend_id: z.string(),
  vm_uuid: z.string(),
  ...timestamps,
});
export type PortView = z.infer<typeof portViewSchema>;

/**
 * A snapshot of a VM as vCenter keeps it in the VM's snapshot tree (Waldur-style
 * `vmware-snapshots`). `backend_id` is vCenter's managed object id (`snapshot-12`); `parent_uuid`
 * and `children` give the tree; `current` is the snapshot the VM runs from; `memory` whether the
 * VM's memory was saved (vCenter's `state` of the snapshot is poweredOn), so a revert powers the VM
 * on, else off. `created` is vCenter's createTime; `warnings` says when it is older than the
 * offering allows (`snapshot_max_age_hours`).
 */
export const snapshotViewSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  description: z.string(),
  backend_id: z.string(),
  vm_uuid: z.string(),
  parent_uuid: z.uuid().nullable(),
  children: z.array(z.uuid()),
  current: z.boolean(),
  memory: z.boolean(),
  quiesced: z.boolean(),
  created: z.iso.datetime({ offset: true }),
  warnings: z.array(z.string()),
});
export type SnapshotView = z.infer<typeof snapshotViewSchema>;

/**
 * A VM an order made, as Waldur's `vmware-virtual-machine` shows it. `uuid` is vCenter's instance
 * uuid, the marketplace resource's `resource_uuid`. MiB for ram and disk; `disk` is the sum of the
 * disks' sizes.
 */
export const virtualMachineViewSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  backend_id: z.string(),
  state: z.enum(VM_STATES),
  error_message: z.string(),
  runtime_state: z.enum(RUNTIME_STATES),
  cores: z.number().int(),
  cores_per_socket: z.number().int(),
  ram: z.number().int(),
  disk: z.number().int(),
  tools_installed: z.boolean(),
  tools_state: z.enum(TOOLS_STATES),
  disks: z.array(diskViewSchema),
  ports: z.array(portViewSchema),
  /** Its snapshots, parents before children (absent in events older than snapshots). */
  snapshots: z.array(snapshotViewSchema).optional(),
  /** vCenter's `runtime.consolidationNeeded`: the disks need consolidation (a failed snapshot removal). */
  consolidation_needed: z.boolean().optional(),
  marketplace_resource_uuid: z.uuid(),
  customer_uuid: z.uuid().nullable(),
  project_uuid: z.uuid().nullable(),
  offering_uuid: z.uuid(),
  ...timestamps,
});
export type VirtualMachineView = z.infer<typeof virtualMachineViewSchema>;

/**
 * What can be done to a VM after it exists: each is one operation, queued per VM and carried out
 * one at a time (vCenter answers TaskInProgress to a second task on a VM).
 */
export const VM_OPERATION_KINDS = [
  'start',
  'stop',
  'reset',
  'suspend',
  'shutdown_guest',
  'reboot_guest',
  'update',
  'pull',
  'create_disk',
  'extend_disk',
  'delete_disk',
  'create_port',
  'delete_port',
  'create_snapshot',
  'revert_snapshot',
  'delete_snapshot',
  'delete_all_snapshots',
] as const;
export type VmOperationKind = (typeof VM_OPERATION_KINDS)[number];

export const VM_OPERATION_STATES = ['pending', 'running', 'done', 'erred'] as const;
export type VmOperationState = (typeof VM_OPERATION_STATES)[number];

/**
 * An operation accepted on a VM (the 202 answer, and in VmChanged when it ends). `status` is
 * Waldur's "<kind> was scheduled"; `disk_uuid` / `port_uuid` name the device it concerns.
 */
export const vmOperationViewSchema = z.object({
  uuid: z.uuid(),
  status: z.string(),
  operation: z.enum(VM_OPERATION_KINDS),
  vm_uuid: z.string(),
  state: z.enum(VM_OPERATION_STATES),
  error_message: z.string(),
  disk_uuid: z.uuid().nullable(),
  port_uuid: z.uuid().nullable(),
  /** The snapshot a revert or delete concerns (absent in older events). */
  snapshot_uuid: z.uuid().nullable().optional(),
  created: z.iso.datetime({ offset: true }),
});
export type VmOperationView = z.infer<typeof vmOperationViewSchema>;

/** A console URL made for this request only (vCenter's tickets work once). */
export const consoleViewSchema = z.object({ url: z.string() });
export type ConsoleView = z.infer<typeof consoleViewSchema>;
