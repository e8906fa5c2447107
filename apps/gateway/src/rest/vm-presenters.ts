import {
  consoleViewSchema,
  diskViewSchema,
  portViewSchema,
  snapshotViewSchema,
  virtualMachineViewSchema,
  vmOperationViewSchema,
  vmStatsViewSchema,
  type DiskView,
  type PortView,
  type SnapshotView,
  type VirtualMachineView,
  type VmOperationView,
  type VmStatsView,
} from '@app/contracts';
import { z } from 'zod';
import type { Links } from './links';
import { model } from './openapi-models';
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

/** A snapshot as `GET /api/vmware-snapshots/{uuid}/` shows it: its own `url`, its VM's and its parent's. */
export function presentSnapshot(view: SnapshotView, links: Links): object {
  return {
    url: links.resource('vmware-snapshots', view.uuid),
    ...view,
    vm: links.resource('vmware-virtual-machine', view.vm_uuid),
    parent: view.parent_uuid === null ? null : links.resource('vmware-snapshots', view.parent_uuid),
  };
}

/**
 * A VM as `GET /api/vmware-virtual-machine/{uuid}/` shows it, its disks and adapters presented too,
 * with Waldur's links to its project, customer and service settings (its offering's integration,
 * keyed by the offering, as the offering's `scope` is).
 */
export function presentVm(view: VirtualMachineView, links: Links): object {
  return {
    url: links.resource('vmware-virtual-machine', view.uuid),
    ...view,
    disks: view.disks.map((disk) => presentDisk(disk, links)),
    ports: view.ports.map((port) => presentPort(port, links)),
    snapshots: (view.snapshots ?? []).map((snapshot) => presentSnapshot(snapshot, links)),
    consolidation_needed: view.consolidation_needed ?? false,
    offering: links.resource('marketplace-public-offerings', view.offering_uuid),
    project: view.project_uuid === null ? null : links.resource('projects', view.project_uuid),
    customer: view.customer_uuid === null ? null : links.resource('customers', view.customer_uuid),
    service_settings: links.resource('service-settings', view.offering_uuid),
    service_settings_uuid: view.offering_uuid,
  };
}

/**
 * An operation accepted on a VM (the 202 answer), with links to the VM and the device it concerns,
 * and Waldur's `detail` (its executors answer `{"detail": "… was scheduled"}`).
 */
export function presentOperation(view: VmOperationView, links: Links): object {
  return {
    ...view,
    detail: view.status,
    vm: links.resource('vmware-virtual-machine', view.vm_uuid),
    disk: view.disk_uuid === null ? null : links.resource('vmware-disks', view.disk_uuid),
    port: view.port_uuid === null ? null : links.resource('vmware-ports', view.port_uuid),
    snapshot_uuid: view.snapshot_uuid ?? null,
    snapshot:
      view.snapshot_uuid === undefined || view.snapshot_uuid === null
        ? null
        : links.resource('vmware-snapshots', view.snapshot_uuid),
  };
}

const diskSchema = model('VmwareDisk', diskViewSchema.extend({ url: z.url(), vm: z.url() }));
const portSchema = model(
  'VmwarePort',
  portViewSchema.extend({ url: z.url(), vm: z.url(), network: z.url().nullable() }),
);

const snapshotSchema = model(
  'VmwareSnapshot',
  snapshotViewSchema.extend({ url: z.url(), vm: z.url(), parent: z.url().nullable() }),
);

export const disk: Presenter<DiskView> = { schema: diskSchema, present: presentDisk };
export const snapshot: Presenter<SnapshotView> = { schema: snapshotSchema, present: presentSnapshot };
export const port: Presenter<PortView> = { schema: portSchema, present: presentPort };
export const vm: Presenter<VirtualMachineView> = {
  schema: model(
    'VmwareVirtualMachine',
    virtualMachineViewSchema.extend({
      url: z.url(),
      disks: z.array(diskSchema),
      ports: z.array(portSchema),
      snapshots: z.array(snapshotSchema),
      consolidation_needed: z.boolean(),
      offering: z.url(),
      project: z.url().nullable(),
      customer: z.url().nullable(),
      service_settings: z.url(),
      service_settings_uuid: z.uuid(),
    }),
  ),
  present: presentVm,
};
export const operation: Presenter<VmOperationView> = {
  schema: model(
    'VmwareOperation',
    vmOperationViewSchema.extend({
      detail: z.string(),
      vm: z.url(),
      disk: z.url().nullable(),
      port: z.url().nullable(),
      snapshot_uuid: z.uuid().nullable(),
      snapshot: z.url().nullable(),
    }),
  ),
  present: presentOperation,
};
/** A VM's usage is its view as it is, with its VM's link. */
export const stats: Presenter<VmStatsView> = {
  schema: model('VmwareVirtualMachineStats', vmStatsViewSchema.extend({ vm: z.url() })),
  present: (view, links) => ({ ...view, vm: links.resource('vmware-virtual-machine', view.vm_uuid) }),
};

/** A console URL is its view as it is: nothing to link. */
export const consoleUrl: Presenter<object> = {
  schema: model('ConsoleUrl', consoleViewSchema),
  present: (view) => view,
};
