import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/messaging';
import type { RemoteVm, RuntimeState } from '../../vcenter/ports/vm-provisioner.port';
import { VmDeviceReconciler } from './vm-device-reconciler';

/** A VM an order made, as the adapter recorded it. */
export interface VirtualMachineRow {
  uuid: string;
  offeringUuid: string;
  orderUuid: string;
  marketplaceResourceUuid: string;
  backendUuid: string;
  moref: string;
  name: string;
  cpu: number;
  coresPerSocket: number;
  ram: number;
  disk: number;
  runtimeState: RuntimeState;
}

interface RawVm {
  uuid: string;
  offering_uuid: string;
  order_uuid: string;
  resource_uuid: string;
  backend_uuid: string;
  moref: string;
  name: string;
  cpu: number;
  cores_per_socket: number;
  ram: number;
  disk: string;
  runtime_state: RuntimeState;
}

const toRow = (r: RawVm): VirtualMachineRow => ({
  uuid: r.uuid,
  offeringUuid: r.offering_uuid,
  orderUuid: r.order_uuid,
  marketplaceResourceUuid: r.resource_uuid,
  backendUuid: r.backend_uuid,
  moref: r.moref,
  name: r.name,
  cpu: r.cpu,
  coresPerSocket: r.cores_per_socket,
  ram: r.ram,
  disk: Number(r.disk),
  runtimeState: r.runtime_state,
});

/** The VM's total disk in MiB (Waldur's `total_disk`). Pure. */
export const totalDisk = (vm: Pick<RemoteVm, 'disks'>): number =>
  vm.disks.reduce((sum, d) => sum + d.sizeMiB, 0);

/**
 * The VMs orders made, and the orders already answered. Their disks and network adapters are kept
 * in line by the VmDeviceReconciler, so a device's row (and uuid) outlives every refresh.
 */
@Injectable()
export class VirtualMachineRepository {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly devices: VmDeviceReconciler,
  ) {}

  async getByBackendUuid(offeringUuid: string, backendUuid: string): Promise<VirtualMachineRow | null> {
    const rows: RawVm[] = await this.dataSource.query(
      `SELECT * FROM "vsphere"."virtual_machines" WHERE "offering_uuid" = $1 AND "backend_uuid" = $2`,
      [offeringUuid, backendUuid],
    );
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  /** How the order was last answered (by any delivery of it), or null when it never was. */
  async answerOf(orderUuid: string): Promise<'done' | 'erred' | null> {
    const rows: { outcome: 'done' | 'erred' }[] = await this.dataSource.query(
      `SELECT "outcome" FROM "vsphere"."order_answers" WHERE "order_uuid" = $1`,
      [orderUuid],
    );
    return rows[0]?.outcome ?? null;
  }

  /**
   * Records the answer; false when the order was answered done already (the caller then sends
   * none). An erred answer gives way to the answer of a retry.
   */
  async markAnswered(tx: Transaction, orderUuid: string, outcome: 'done' | 'erred'): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO "vsphere"."order_answers" AS a ("order_uuid", "outcome") VALUES ($1, $2)
       ON CONFLICT ("order_uuid") DO UPDATE SET "outcome" = EXCLUDED."outcome" WHERE a."outcome" = 'erred'
       RETURNING 1`,
      [orderUuid, outcome],
    );
    return rows.length > 0;
  }

  /** Records the VM (or refreshes it, keyed by its vCenter uuid) with its disks and adapters. */
  async save(
    tx: Transaction,
    vm: RemoteVm,
    owner: {
      offeringUuid: string;
      orderUuid: string;
      marketplaceResourceUuid: string;
      customerUuid?: string;
      projectUuid?: string;
      templateUuid?: string;
    },
    networkUuids: ReadonlyMap<string, string>,
  ): Promise<string> {
    const [row]: { uuid: string }[] = await tx.query(
      `INSERT INTO "vsphere"."virtual_machines" ("uuid", "offering_uuid", "order_uuid", "resource_uuid", "customer_uuid",
         "backend_uuid", "moref", "name", "template_uuid", "cpu", "cores_per_socket", "ram", "disk", "runtime_state",
         "project_uuid")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT ("offering_uuid", "backend_uuid") DO UPDATE SET "moref" = EXCLUDED."moref", "name" = EXCLUDED."name",
         "cpu" = EXCLUDED."cpu", "cores_per_socket" = EXCLUDED."cores_per_socket", "ram" = EXCLUDED."ram",
         "disk" = EXCLUDED."disk", "runtime_state" = EXCLUDED."runtime_state", "modified" = now()
       RETURNING "uuid"`,
      [
        randomUUID(),
        owner.offeringUuid,
        owner.orderUuid,
        owner.marketplaceResourceUuid,
        owner.customerUuid ?? null,
        vm.uuid,
        vm.moref,
        vm.name,
        owner.templateUuid ?? null,
        vm.cpu,
        vm.coresPerSocket,
        vm.ram,
        totalDisk(vm),
        vm.runtimeState,
        owner.projectUuid ?? null,
      ],
    );
    await this.devices.reconcile(tx, row.uuid, vm, networkUuids);
    return row.uuid;
  }

  /** The hardware after a reconfiguration, read back from vCenter. */
  async refresh(
    tx: Transaction,
    uuid: string,
    vm: RemoteVm,
    networkUuids: ReadonlyMap<string, string>,
  ): Promise<void> {
    await tx.query(
      `UPDATE "vsphere"."virtual_machines" SET "moref" = $2, "name" = $3, "cpu" = $4, "cores_per_socket" = $5,
         "ram" = $6, "disk" = $7, "runtime_state" = $8, "modified" = now() WHERE "uuid" = $1`,
      [uuid, vm.moref, vm.name, vm.cpu, vm.coresPerSocket, vm.ram, totalDisk(vm), vm.runtimeState],
    );
    await this.devices.reconcile(tx, uuid, vm, networkUuids);
  }

  async delete(tx: Transaction, uuid: string): Promise<void> {
    await tx.query(`DELETE FROM "vsphere"."virtual_machines" WHERE "uuid" = $1`, [uuid]);
  }
}
