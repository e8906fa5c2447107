import type { DeviceState, DiskView, PortView } from '@app/contracts';

/** The columns every disk and adapter row has, as a query returns them. */
export interface RawDeviceRow {
  uuid: string;
  name: string;
  state: DeviceState;
  error_message: string;
  device_key: number | null;
  created: Date;
  modified: Date;
}

export interface RawDiskRow extends RawDeviceRow {
  size: string;
}

/** An adapter row with its network's name (joined from the inventory). */
export interface RawPortRow extends RawDeviceRow {
  mac_address: string | null;
  network_uuid: string | null;
  network_name: string | null;
  connected: boolean;
}

/**
 * The order of a VM's disks and adapters: as they were recorded (those it came with by key), so a
 * new one goes last and keeps its place once vCenter gives it a key. Keys say nothing of when a
 * device came (vcsim keys a deployed VM's disk far above a disk added later): ordered by key, a new
 * disk jumped ahead and the portal's "Disk 2" named another disk from one event to the next.
 */
export const deviceOrder = (alias = ''): string =>
  `${alias}"created", ${alias}"device_key" NULLS LAST, ${alias}"uuid"`;

function deviceFields(row: RawDeviceRow, vmUuid: string) {
  return {
    uuid: row.uuid,
    name: row.name,
    state: row.state,
    error_message: row.error_message,
    backend_id: row.device_key === null ? '' : String(row.device_key),
    vm_uuid: vmUuid,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

/** A disk as `/api/vmware-disks/` and the VM's `disks` show it; `vmUuid` is vCenter's uuid. Pure. */
export const toDiskView = (row: RawDiskRow, vmUuid: string): DiskView => ({
  ...deviceFields(row, vmUuid),
  size: Number(row.size),
});

/** An adapter as `/api/vmware-ports/` and the VM's `ports` show it. Pure. */
export const toPortView = (row: RawPortRow, vmUuid: string): PortView => ({
  ...deviceFields(row, vmUuid),
  mac_address: row.mac_address ?? '',
  network_uuid: row.network_uuid,
  network_name: row.network_name ?? '',
  runtime_state: row.connected ? 'CONNECTED' : 'NOT_CONNECTED',
});
