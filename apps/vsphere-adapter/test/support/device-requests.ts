import type { DiskView, Page, PortView, RequestReply, VmOperationView, Caller } from '@app/contracts';
import type { DataSource } from 'typeorm';
import { ask, type RequestClient } from './requests';

/** The gateway's requests about one VM's disks and adapters, as `caller`. */
export function deviceRequests(client: RequestClient, caller: Caller, vmUuid: string) {
  const send = <T>(pattern: string, params: object, body: object = {}, query: object = {}) =>
    ask<T>(client, pattern, { caller, params, query, body });
  return {
    createDisk: (size: number) => send<DiskView>('vsphere.vm.create_disk', { uuid: vmUuid }, { size }),
    createPort: (network: string) => send<PortView>('vsphere.vm.create_port', { uuid: vmUuid }, { network }),
    disks: () => send<Page<DiskView>>('vsphere.disk.list', {}, {}, { vm_uuid: vmUuid, page_size: 100 }),
    ports: () => send<Page<PortView>>('vsphere.port.list', {}, {}, { vm_uuid: vmUuid, page_size: 100 }),
    disk: (uuid: string) => send<DiskView>('vsphere.disk.get', { uuid }),
    port: (uuid: string) => send<PortView>('vsphere.port.get', { uuid }),
    extend: (uuid: string, size: number) => send<VmOperationView>('vsphere.disk.extend', { uuid }, { size }),
    deleteDisk: (uuid: string) => send<VmOperationView | null>('vsphere.disk.delete', { uuid }),
    deletePort: (uuid: string) => send<VmOperationView | null>('vsphere.port.delete', { uuid }),
  };
}

/** Polls `read` until `done` holds for what it returns; fails past `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the operation is done or erred; its state and message. */
export async function operationEnded(
  dataSource: DataSource,
  uuid: string,
): Promise<{ state: string; error_message: string }> {
  const read = async (): Promise<{ state: string; error_message: string } | undefined> => {
    const rows: { state: string; error_message: string }[] = await dataSource.query(
      `SELECT "state", "error_message" FROM "vsphere"."vm_operations" WHERE "uuid" = $1`,
      [uuid],
    );
    return rows[0];
  };
  const row = await eventually(read, (r) => r !== undefined && (r.state === 'done' || r.state === 'erred'));
  return row!;
}

/** The operation a create request queued for the device. */
export async function operationOfDevice(dataSource: DataSource, deviceUuid: string): Promise<string> {
  const rows: { uuid: string }[] = await dataSource.query(
    `SELECT "uuid" FROM "vsphere"."vm_operations" WHERE "disk_uuid" = $1 OR "port_uuid" = $1 ORDER BY "created" LIMIT 1`,
    [deviceUuid],
  );
  return rows[0].uuid;
}

/** The reply's data; fails with the reply otherwise (null allowed: a 204). */
export function answered<T>(reply: RequestReply<T>): T {
  if (reply.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(reply)}`);
  return reply.data;
}
