import { randomUUID } from 'node:crypto';
import { API_PATHS, fillPath, VM_CREATE_SNAPSHOT } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { checkBody } from '../input/checked-body';
import { runVmOperation, type OperationFlags } from './vm-operation';

type Json = Record<string, unknown>;

export interface SnapshotCreateFlags extends OperationFlags {
  vm: string;
  name?: string;
  description?: string;
  memory?: boolean;
  quiesce?: boolean;
}

/** The body of `vmware snapshot create`, checked against the contract; a broken rule names its flag. */
export function snapshotCreateBody(flags: Omit<SnapshotCreateFlags, 'vm' | keyof OperationFlags>): Json {
  const body: Json = { name: flags.name };
  if (flags.description !== undefined) body.description = flags.description;
  if (flags.memory) body.memory = true;
  if (flags.quiesce) body.quiesce = true;
  return checkBody(VM_CREATE_SNAPSHOT.body, body, (field) => `--${field}`);
}

/**
 * `vmware snapshot create --vm UUID --name N [--memory] [--quiesce]`: 202 with the operation; with
 * an Idempotency-Key of its own, so an unanswered request is sent again and takes one snapshot.
 */
export async function createSnapshot(context: CommandContext, flags: SnapshotCreateFlags): Promise<void> {
  const body = snapshotCreateBody(flags);
  const path = fillPath(API_PATHS.vmwareVirtualMachineCreateSnapshot, { uuid: flags.vm });
  const key = randomUUID();
  await runVmOperation(
    context,
    flags.vm,
    flags,
    async () => (await context.client.post<Json>(path, body, undefined, key)).body,
  );
}

/** The VM a snapshot belongs to: `--wait` follows that VM's events. */
async function vmOf(context: CommandContext, uuid: string): Promise<string> {
  const { body } = await context.client.get<Json>(fillPath(API_PATHS.vmwareSnapshot, { uuid }));
  return String(body.vm_uuid);
}

/** `vmware snapshot revert UUID`: the VM goes back to it (202 with the operation). */
export async function revertSnapshot(
  context: CommandContext,
  uuid: string,
  flags: OperationFlags,
): Promise<void> {
  const vm = flags.wait ? await vmOf(context, uuid) : '';
  const path = fillPath(API_PATHS.vmwareSnapshotRevert, { uuid });
  await runVmOperation(context, vm, flags, async () => (await context.client.post<Json>(path, {})).body);
}

/**
 * `vmware snapshot delete UUID` (its children stay) or `vmware snapshot delete --all --vm UUID`
 * (every snapshot of the VM): 202 with the operation.
 */
export async function deleteSnapshot(
  context: CommandContext,
  uuid: string | undefined,
  flags: OperationFlags & { all?: boolean; vm?: string },
): Promise<void> {
  if (flags.all) {
    if (flags.vm === undefined || uuid !== undefined)
      throw CliError.usage('vmware snapshot delete --all needs --vm UUID and no snapshot');
    const path = fillPath(API_PATHS.vmwareVirtualMachineRemoveAllSnapshots, { uuid: flags.vm });
    return runVmOperation(
      context,
      flags.vm,
      flags,
      async () => (await context.client.post<Json>(path, {})).body,
    );
  }
  if (uuid === undefined)
    throw CliError.usage('vmware snapshot delete needs a snapshot UUID (or --all --vm UUID)');
  const vm = flags.wait ? await vmOf(context, uuid) : '';
  const path = fillPath(API_PATHS.vmwareSnapshot, { uuid });
  await runVmOperation(context, vm, flags, async () => (await context.client.delete<Json>(path)).body);
}
