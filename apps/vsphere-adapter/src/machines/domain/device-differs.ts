import type { RemoteDisk, RemoteNic } from '../../vcenter/ports/vm-provisioner.port';
import type { RecordedDevice } from './device-reconcile';

/** A disk row as the reconciler and the pull compare it with vCenter's disk. */
export interface RecordedDisk extends RecordedDevice {
  readonly size: number;
  readonly datastore: string | null;
  readonly label: string | null;
}

/** An adapter row as the reconciler and the pull compare it with vCenter's adapter. */
export interface RecordedPort extends RecordedDevice {
  readonly mac: string | null;
  readonly network: string | null;
  readonly networkUuid: string | null;
  readonly connected: boolean;
}

/** Whether the disk row must be rewritten to match vCenter's disk of the same key. */
export function diskDiffers(row: RecordedDisk, disk: RemoteDisk): boolean {
  return (
    row.size !== disk.sizeMiB ||
    row.datastore !== (disk.datastore ?? null) ||
    row.label !== (disk.label ?? null)
  );
}

/** The adapter's network as recorded: our network's uuid, null when the offering does not know it. */
export function networkUuidOf(nic: RemoteNic, networkUuids: ReadonlyMap<string, string>): string | null {
  return nic.network === undefined ? null : (networkUuids.get(nic.network) ?? null);
}

/** Whether the adapter row must be rewritten to match vCenter's adapter of the same key. */
export function portDiffers(
  row: RecordedPort,
  nic: RemoteNic,
  networkUuids: ReadonlyMap<string, string>,
): boolean {
  return (
    row.mac !== (nic.macAddress ?? null) ||
    row.network !== (nic.network ?? null) ||
    row.networkUuid !== networkUuidOf(nic, networkUuids) ||
    row.connected !== nic.connected
  );
}
