import { Injectable } from '@nestjs/common';
import {
  createVmSnapshot,
  removeAllVmSnapshots,
  removeVmSnapshot,
  revertToVmSnapshot,
  type MoRef,
} from '@app/vim25';
import type { VcenterConnection } from '../../integration/domain/vcenter-connection';
import type { VmCallOptions } from '../ports/vm-provisioner.port';
import type { VmSnapshots } from '../ports/vm-snapshots.port';
import { Vim25VmProvisioner } from './vim25-vm-provisioner';

const vmRef = (moref: string): MoRef => ({ type: 'VirtualMachine', value: moref });
const snapshotRef = (moref: string): MoRef => ({ type: 'VirtualMachineSnapshot', value: moref });

/** The snapshot tasks on libs/vim25, on the provisioner's `long` sessions (tasks and their waits). */
@Injectable()
export class Vim25VmSnapshots implements VmSnapshots {
  constructor(private readonly sessions: Vim25VmProvisioner) {}

  async create(
    connection: VcenterConnection,
    moref: string,
    spec: { name: string; description: string; memory: boolean; quiesce: boolean },
    options: VmCallOptions,
  ): Promise<string | undefined> {
    const vim = await this.sessions.session(connection, 'long', options);
    return (await createVmSnapshot(vim, vmRef(moref), spec, options))?.value;
  }

  async revert(connection: VcenterConnection, snapshot: string, options: VmCallOptions): Promise<void> {
    await revertToVmSnapshot(
      await this.sessions.session(connection, 'long', options),
      snapshotRef(snapshot),
      options,
    );
  }

  async remove(connection: VcenterConnection, snapshot: string, options: VmCallOptions): Promise<void> {
    await removeVmSnapshot(
      await this.sessions.session(connection, 'long', options),
      snapshotRef(snapshot),
      options,
    );
  }

  async removeAll(connection: VcenterConnection, moref: string, options: VmCallOptions): Promise<void> {
    await removeAllVmSnapshots(
      await this.sessions.session(connection, 'long', options),
      vmRef(moref),
      options,
    );
  }
}
