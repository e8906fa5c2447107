import {
  consoleViewSchema,
  diskViewSchema,
  portViewSchema,
  virtualMachineViewSchema,
  vmOperationViewSchema,
  type DiskView,
  type PortView,
  type VirtualMachineView,
  type VmOperationView,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import type { Presenter } from './route';

/** A disk as `GET /api/vmware-disks/{uuid}/` shows it: its own `url` and its VM's. */
export function presentDisk(view: DiskView, links: Links): object {
  return {
    url: links.resource('vmware-disks', view.uuid),
    ...view,
    vm: links.resource('vmware-virtual-machine', view.vm_uuid),
  };
}

/** A network adapter as `GET /api/vmware-ports/{uuid}/` shows it, with its VM and network. */
export function presentPort(view: PortView, links: Links): object {
  return {
    url: links.resource('vmware-ports', view.uuid),
    ...view,
    vm: links.resource('vmware-virtual-machine', view.vm_uuid),
    network: view.network_uuid === null ? null : links.resource('vmware-networks', view.network_uuid),
  };
}

/** A VM as `GET /api/vmware-virtual-machine/{uuid}/` shows it, its disks and adapters presented too. */
export function presentVm(view: VirtualMachineView, links: Links): object {
  return {
    url: links.resource('vmware-virtual-machine', view.uuid),
    ...view,
    disks: view.disks.map((disk) => presentDisk(disk, links)),
    ports: view.ports.map((port) => presentPort(port, links)),
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
  };
}

/** An operation accepted on a VM (the 202 answer), with links to the VM and the device it concerns. */
export function presentOperation(view: VmOperationView, links: Links): object {
  return {
    ...view,
    vm: links.resource('vmware-virtual-machine', view.vm_uuid),
    disk: view.disk_uuid === null ? null : links.resource('vmware-disks', view.disk_uuid),
    port: view.port_uuid === null ? null : links.resource('vmware-ports', view.port_uuid),
  };
}

const diskSchema = diskViewSchema.extend({ url: z.url(), vm: z.url() });
const portSchema = portViewSchema.extend({ url: z.url(), vm: z.url(), network: z.url().nullable() });

export const disk: Presenter<DiskView> = { schema: diskSchema, present: presentDisk };
export const port: Presenter<PortView> = { schema: portSchema, present: presentPort };
export const vm: Presenter<VirtualMachineView> = {
  schema: virtualMachineViewSchema.extend({
    url: z.url(),
    disks: z.array(diskSchema),
    ports: z.array(portSchema),
    offering: z.url(),
  }),
  present: presentVm,
};
export const operation: Presenter<VmOperationView> = {
  schema: vmOperationViewSchema.extend({ vm: z.url(), disk: z.url().nullable(), port: z.url().nullable() }),
  present: presentOperation,
};
/** A console URL is its view as it is: nothing to link. */
export const consoleUrl: Presenter<object> = { schema: consoleViewSchema, present: (view) => view };
