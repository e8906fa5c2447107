import { Inject, Injectable } from '@nestjs/common';
import type { ToolsState, VmRuntimeState, VmState } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { RecordedDisk, RecordedPort } from '../domain/device-differs';
import { snapshotLine } from '../domain/snapshot-drift';
import type { RecordedVm } from '../domain/vm-drift';

interface RawVm {
  uuid: string;
  backend_uuid: string;
  state: VmState;
  error_message: string;
  moref: string;
  name: string;
  runtime_state: VmRuntimeState;
  cpu: number;
  cores_per_socket: number;
  ram: number;
  disk: string;
  tools_state: ToolsState;
  tools_installed: boolean;
  consolidation_needed: boolean;
}

interface RawSnapshot {
  vm_uuid: string;
  backend_id: string;
  parent_backend_id: string | null;
  name: string;
  description: string;
  memory: boolean;
  quiesced: boolean;
  current: boolean;
  created: Date;
}

interface RawDisk {
  uuid: string;
  vm_uuid: string;
  device_key: number | null;
  size: string;
  datastore: string | null;
  label: string | null;
}

interface RawPort {
  uuid: string;
  vm_uuid: string;
  device_key: number | null;
  mac_address: string | null;
  network_backend_id: string | null;
  network_uuid: string | null;
  connected: boolean;
}

function grouped<T extends { vm_uuid: string }>(rows: readonly T[]): Map<string, T[]> {
  const byVm = new Map<string, T[]>();
  for (const row of rows) {
    const list = byVm.get(row.vm_uuid);
    if (list === undefined) byVm.set(row.vm_uuid, [row]);
    else list.push(row);
  }
  return byVm;
}

/**
 * The recorded state of every VM of an offering with its disks, adapters and snapshots, in four queries
 * (at once) whatever the number of VMs: what a pull compares with vCenter's read before opening any
 * transaction. Read without locks; recording a VM locks and reads it again.
 */
@Injectable()
export class VmPullStateRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * The offering's recorded VMs, or only those whose vCenter uuid is among `backendUuids` (what
   * a part of vCenter's answer is compared with, so memory follows the part, not the offering).
   */
  async ofOffering(offeringUuid: string, backendUuids?: readonly string[]): Promise<RecordedVm[]> {
    const only = backendUuids === undefined ? '' : ` AND v."backend_uuid" = ANY($2::text[])`;
    const args = backendUuids === undefined ? [offeringUuid] : [offeringUuid, backendUuids];
    const [vms, diskRows, portRows, snapshotRows] = await Promise.all([
      this.dataSource.query<RawVm[]>(
        `SELECT "uuid", "backend_uuid", "state", "error_message", "moref", "name", "runtime_state", "cpu",
           "cores_per_socket", "ram", "disk", "tools_state", "tools_installed", "consolidation_needed"
         FROM "vsphere"."virtual_machines" v WHERE "offering_uuid" = $1${only}`,
        args,
      ),
      this.dataSource.query<RawDisk[]>(
        `SELECT d."uuid", d."vm_uuid", d."device_key", d."size", d."datastore", d."label"
         FROM "vsphere"."vm_disks" d JOIN "vsphere"."virtual_machines" v ON v."uuid" = d."vm_uuid"
         WHERE v."offering_uuid" = $1${only}`,
        args,
      ),
      this.dataSource.query<RawPort[]>(
        `SELECT a."uuid", a."vm_uuid", a."device_key", a."mac_address", a."network_backend_id", a."network_uuid",
           a."connected"
         FROM "vsphere"."vm_network_adapters" a JOIN "vsphere"."virtual_machines" v ON v."uuid" = a."vm_uuid"
         WHERE v."offering_uuid" = $1${only}`,
        args,
      ),
      this.dataSource.query<RawSnapshot[]>(
        `SELECT s."vm_uuid", s."backend_id", s."parent_backend_id", s."name", s."description", s."memory",
           s."quiesced", s."current", s."created"
         FROM "vsphere"."vm_snapshots" s JOIN "vsphere"."virtual_machines" v ON v."uuid" = s."vm_uuid"
         WHERE v."offering_uuid" = $1${only} ORDER BY s."position"`,
        args,
      ),
    ]);
    const snapshots = grouped(snapshotRows);
    const disks = grouped(diskRows);
    const ports = grouped(portRows);
    return vms.map((vm) => ({
      rowUuid: vm.uuid,
      backendUuid: vm.backend_uuid,
      state: vm.state,
      errorMessage: vm.error_message,
      moref: vm.moref,
      name: vm.name,
      runtimeState: vm.runtime_state,
      cpu: vm.cpu,
      coresPerSocket: vm.cores_per_socket,
      ram: vm.ram,
      disk: Number(vm.disk),
      toolsState: vm.tools_state,
      toolsInstalled: vm.tools_installed,
      disks: (disks.get(vm.uuid) ?? []).map((d): RecordedDisk => ({
        uuid: d.uuid,
        key: d.device_key,
        size: Number(d.size),
        datastore: d.datastore,
        label: d.label,
      })),
      ports: (ports.get(vm.uuid) ?? []).map((p): RecordedPort => ({
        uuid: p.uuid,
        key: p.device_key,
        mac: p.mac_address,
        network: p.network_backend_id,
        networkUuid: p.network_uuid,
        connected: p.connected,
      })),
      snapshots: {
        lines: (snapshots.get(vm.uuid) ?? []).map((r) =>
          snapshotLine({
            moref: r.backend_id,
            parent: r.parent_backend_id,
            name: r.name,
            description: r.description,
            memory: r.memory,
            quiesced: r.quiesced,
            current: r.current,
            created: r.created.getTime(),
          }),
        ),
        consolidationNeeded: vm.consolidation_needed,
      },
    }));
  }
}
