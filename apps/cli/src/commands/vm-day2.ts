import { randomUUID } from 'node:crypto';
import {
  API_PATHS,
  DISK_EXTEND,
  fillPath,
  VM_ACTIONS,
  VM_CREATE_DISK,
  VM_CREATE_PORT,
  VM_UPDATE,
  vmActionPath,
  type VmAction,
} from '@app/contracts';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { checkBody } from '../input/checked-body';
import { DISK, PORT } from './nouns';
import { runVmOperation, type OperationFlags } from './vm-operation';

type Json = Record<string, unknown>;

/** The flag of each body field, for messages: `cores_per_socket` is `--cores-per-socket`. */
const flagOf = (field: string) => `--${field.replace(/_/g, '-')}`;

/** `vmware vm shutdown-guest` → `shutdown_guest`: one of the contract's VM actions. */
export function vmActionOf(verb: string): VmAction {
  const action = verb.replace(/-/g, '_');
  if (!(VM_ACTIONS as readonly string[]).includes(action))
    throw CliError.usage(`vmware vm ${verb}: not a VM action; one of ${VM_ACTIONS.join(', ')}`);
  return action as VmAction;
}

/** `vmware vm start UUID` and the other actions: `POST …/{uuid}/<action>/` without a body (202). */
export async function vmAction(
  context: CommandContext,
  verb: string,
  uuid: string,
  flags: OperationFlags,
): Promise<void> {
  const path = fillPath(vmActionPath(vmActionOf(verb)), { uuid });
  await runVmOperation(context, uuid, flags, async () => (await context.client.post<Json>(path, {})).body);
}

export interface UpdateFlags extends OperationFlags {
  cores?: number;
  coresPerSocket?: number;
  ram?: number;
}

/** The body of `vmware vm update`: what was given, checked against the contract; at least one field. */
export function vmUpdateBody(flags: UpdateFlags): Json {
  const body: Json = {};
  if (flags.cores !== undefined) body.cores = flags.cores;
  if (flags.coresPerSocket !== undefined) body.cores_per_socket = flags.coresPerSocket;
  if (flags.ram !== undefined) body.ram = flags.ram;
  if (Object.keys(body).length === 0)
    throw CliError.usage('vmware vm update needs --cores, --cores-per-socket or --ram');
  return checkBody(VM_UPDATE.body, body, flagOf);
}

/** `vmware vm update UUID --cores N --ram MiB`: `PATCH` (202 with the operation; the VM powered off). */
export async function updateVm(context: CommandContext, uuid: string, flags: UpdateFlags): Promise<void> {
  const body = vmUpdateBody(flags);
  const path = fillPath(API_PATHS.vmwareVirtualMachine, { uuid });
  await runVmOperation(context, uuid, flags, async () => (await context.client.patch<Json>(path, body)).body);
}

/**
 * `vmware vm console UUID [--web]`: the VMRC URL (no ticket; staff) or, with `--web`, the WebMKS
 * URL with a single-use ticket made for this request and this VM.
 */
export async function vmConsole(
  context: CommandContext,
  uuid: string,
  flags: { web?: boolean },
): Promise<void> {
  const template = flags.web
    ? API_PATHS.vmwareVirtualMachineWebConsole
    : API_PATHS.vmwareVirtualMachineConsole;
  const { body } = await context.client.get(fillPath(template, { uuid }));
  context.print(body);
}

/** The body of `vmware disk create --size MiB` or `extend --size MiB`, checked against the contract. */
export function diskSizeBody(size: number | undefined, extend: boolean): Json {
  return checkBody(extend ? DISK_EXTEND.body : VM_CREATE_DISK.body, { size }, flagOf);
}

/**
 * `vmware disk create --vm UUID --size MiB`: 201 with the disk (CREATING); `--wait` until it is made.
 * Sent with an Idempotency-Key of its own, so an unanswered request is sent again under it and the
 * API answers the first disk, never a second.
 */
export async function createDisk(
  context: CommandContext,
  flags: OperationFlags & { vm: string; size?: number },
): Promise<void> {
  const body = diskSizeBody(flags.size, false);
  const path = fillPath(API_PATHS.vmwareVirtualMachineCreateDisk, { uuid: flags.vm });
  const key = randomUUID();
  await runVmOperation(
    context,
    flags.vm,
    flags,
    async () => (await context.client.post<Json>(path, body, undefined, key)).body,
    DISK.columns,
  );
}

/** The VM a disk or adapter belongs to: `--wait` follows that VM's events. */
async function vmOf(context: CommandContext, itemPath: string, uuid: string): Promise<string> {
  const { body } = await context.client.get<Json>(fillPath(itemPath, { uuid }));
  return String(body.vm_uuid);
}

/** `vmware disk extend DISK --size MiB`: 202 with the operation (larger than now; also while running). */
export async function extendDisk(
  context: CommandContext,
  uuid: string,
  flags: OperationFlags & { size?: number },
): Promise<void> {
  const body = diskSizeBody(flags.size, true);
  const vm = flags.wait ? await vmOf(context, API_PATHS.vmwareDisk, uuid) : '';
  const path = fillPath(API_PATHS.vmwareDiskExtend, { uuid });
  await runVmOperation(context, vm, flags, async () => (await context.client.post<Json>(path, body)).body);
}

/** `vmware disk|port delete UUID`: `DELETE`, 202 with the operation, or 204 for one vCenter never had. */
export async function deleteDevice(
  context: CommandContext,
  kind: 'disk' | 'port',
  uuid: string,
  flags: OperationFlags,
): Promise<void> {
  const itemPath = kind === 'disk' ? API_PATHS.vmwareDisk : API_PATHS.vmwarePort;
  const vm = flags.wait ? await vmOf(context, itemPath, uuid) : '';
  const path = fillPath(itemPath, { uuid });
  await runVmOperation(context, vm, flags, async () => (await context.client.delete<Json>(path)).body);
}

/** The body of `vmware port create --network X`, checked against the contract. */
export function portCreateBody(network: string | undefined): Json {
  return checkBody(VM_CREATE_PORT.body, { network }, flagOf);
}

/**
 * `vmware port create --vm UUID --network UUID|URL`: 201 with the adapter (CREATING); with an
 * Idempotency-Key of its own, as `disk create`.
 */
export async function createPort(
  context: CommandContext,
  flags: OperationFlags & { vm: string; network?: string },
): Promise<void> {
  const body = portCreateBody(flags.network);
  const path = fillPath(API_PATHS.vmwareVirtualMachineCreatePort, { uuid: flags.vm });
  const key = randomUUID();
  await runVmOperation(
    context,
    flags.vm,
    flags,
    async () => (await context.client.post<Json>(path, body, undefined, key)).body,
    PORT.columns,
  );
}
