import { z } from 'zod';
import { paginationQuery } from '../identity/operation';
import { messages, text } from '../identity/wire-fields';
import { vsphereOperation } from './vsphere-operation';

export const POWER_ACTIONS = ['start', 'stop', 'reset', 'suspend'] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

export const GUEST_ACTIONS = ['shutdown_guest', 'reboot_guest'] as const;
export type GuestAction = (typeof GUEST_ACTIONS)[number];

/** Every action a VM takes as `POST /api/vmware-virtual-machine/{uuid}/<action>/` without a body. */
export const VM_ACTIONS = [...POWER_ACTIONS, ...GUEST_ACTIONS, 'pull'] as const;
export type VmAction = (typeof VM_ACTIONS)[number];

/**
 * A VM's id in our paths: vCenter's instance uuid (a moref for the rare VM without one), so letters,
 * digits and dashes only; anything else (a NUL, a slash) is refused before it reaches a query.
 */
export const vmUuidField = () =>
  z
    .string()
    .max(64, { error: 'Not a valid virtual machine id.', abort: true })
    .regex(/^[0-9A-Za-z-]{1,64}$/, 'Not a valid virtual machine id.');

const vmParams = z.strictObject({ uuid: vmUuidField() });

const count = () => z.number({ error: messages.integer }).int(messages.integer).min(1, messages.minValue(1));

/** MiB, as Waldur takes it; the adapter checks it against the offering's maximums. */
export const sizeMiB = () =>
  z
    .number({ error: messages.integer })
    .int(messages.integer)
    .min(1, messages.minValue(1))
    .max(64 * 1024 * 1024);

/**
 * `vsphere.vm.list` (`/api/vmware-virtual-machine/`): core NATS request-reply from the gateway with
 * the caller's context; answered with RequestReply<Page<VirtualMachineView>>. Staff see every VM,
 * others those of their customers; ordered by name. `project_uuid` narrows to one project.
 */
export const VM_LIST = vsphereOperation('vsphere.vm.list', {
  query: z.object({ ...paginationQuery, project_uuid: z.uuid({ error: messages.uuid }).optional() }),
});

/** `vsphere.vm.get` (`/api/vmware-virtual-machine/{uuid}/`): 404 for a VM the caller may not see. */
export const VM_GET = vsphereOperation('vsphere.vm.get', { params: vmParams });

/**
 * `vsphere.vm.<action>` (`POST /api/vmware-virtual-machine/{uuid}/<action>/`): the adapter checks
 * the precondition against vCenter's state now (409 with the reason: "VMware Tools are not
 * running.", a VM that is not powered on, ...), queues the operation behind any other on the VM and
 * answers 202 with RequestReply<VmOperationView>; the outcome follows as VmChanged. `pull` reads the
 * VM from vCenter and records what changed there.
 */
const actionOperation = (action: VmAction) => vsphereOperation(`vsphere.vm.${action}`, { params: vmParams });
export const VM_ACTION_OPERATIONS = Object.fromEntries(
  VM_ACTIONS.map((action) => [action, actionOperation(action)]),
) as Record<VmAction, ReturnType<typeof actionOperation>>;

/**
 * `vsphere.vm.update` (`PATCH|PUT /api/vmware-virtual-machine/{uuid}/`): CPU, cores per socket and
 * RAM (MiB), only while the VM is powered off (409 otherwise, as vCenter refuses most of these on a
 * running VM) and within the offering's maximums (400 naming the field). 202 with the operation.
 */
export const VM_UPDATE = vsphereOperation('vsphere.vm.update', {
  params: vmParams,
  body: z.strictObject({
    cores: count().optional(),
    cores_per_socket: count().optional(),
    ram: sizeMiB().optional(),
  }),
});

/**
 * `vsphere.vm.console` (`GET .../console/`): `{url: "vmrc://clone:<ticket>@<host[:port]>/?moid=<vm>"}`
 * with a clone ticket acquired for this request. `vsphere.vm.web_console` (`GET .../web_console/`):
 * the `wss://` URL where vCenter issues WebMKS tickets, 409 with the reason where it does not.
 */
export const VM_CONSOLE = vsphereOperation('vsphere.vm.console', { params: vmParams });
export const VM_WEB_CONSOLE = vsphereOperation('vsphere.vm.web_console', { params: vmParams });

/**
 * `vsphere.vm.create_disk` (`POST .../create_disk/`, body `{size}` MiB): at least 1024, within
 * `max_disk` and what `max_disk_total` leaves. 201 with the DiskView (CREATING); the disk is made by
 * a queued operation.
 */
export const VM_CREATE_DISK = vsphereOperation('vsphere.vm.create_disk', {
  params: vmParams,
  body: z.strictObject({ size: sizeMiB() }),
});

/**
 * `vsphere.vm.create_port` (`POST .../create_port/`, body `{network}` as URL, path or uuid of a
 * `vmware-networks` object): the network must be assigned to the VM's customer for existing VMs;
 * at most ten adapters. 201 with the PortView (CREATING).
 */
export const VM_CREATE_PORT = vsphereOperation('vsphere.vm.create_port', {
  params: vmParams,
  body: z.strictObject({ network: text(400) }),
});
