import { z } from 'zod';
import { messages } from '../identity/wire-fields';
import { paginationQuery } from '../identity/operation';

/** Fields every imported vCenter object has: our uuid, its offering, vCenter's id and name. */
const objectFields = {
  uuid: z.uuid(),
  offering_uuid: z.uuid(),
  /** vCenter's id: the managed object id (`domain-c8`), or the Content Library item id for templates. */
  backend_id: z.string(),
  name: z.string(),
};

/** A VM template of the offering's Content Library (Waldur's `vmware-templates`). MiB for ram and disk. */
export const templateViewSchema = z.object({
  ...objectFields,
  description: z.string(),
  /** The name split at the first separator followed by a digit: "Ubuntu-24.04" → Ubuntu / 24.04. */
  os: z.string(),
  os_version: z.string(),
  /** vCenter's guest OS identifier, e.g. UBUNTU_64, WINDOWS_SERVER_2019. */
  guest_os: z.string(),
  /** Its readable name, as Waldur's `guest_os_name`: "Ubuntu Linux (64-bit)". */
  guest_os_name: z.string(),
  cores: z.number().int(),
  cores_per_socket: z.number().int(),
  ram: z.number().int(),
  disk: z.number().int(),
  nic_count: z.number().int(),
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
});
export type TemplateView = z.infer<typeof templateViewSchema>;

export const clusterViewSchema = z.object(objectFields);
export type ClusterView = z.infer<typeof clusterViewSchema>;

export const NETWORK_TYPES = ['STANDARD_PORTGROUP', 'DISTRIBUTED_PORTGROUP', 'OPAQUE_NETWORK'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

export const networkViewSchema = z.object({ ...objectFields, type: z.enum(NETWORK_TYPES) });
export type NetworkView = z.infer<typeof networkViewSchema>;

/** Capacity and free space in MB (vCenter's bytes / 2^20, rounded down; -1 read as 0). */
export const datastoreViewSchema = z.object({
  ...objectFields,
  type: z.string(),
  capacity: z.number().int().nullable(),
  free_space: z.number().int().nullable(),
});
export type DatastoreView = z.infer<typeof datastoreViewSchema>;

/** A folder that can hold VMs. */
export const folderViewSchema = z.object(objectFields);
export type FolderView = z.infer<typeof folderViewSchema>;

/** The offering's maximums (Waldur's `vmware-limits`): MiB for RAM and disks; null is unlimited. */
export const limitsViewSchema = z.object({
  max_cpu: z.number().int().nullable(),
  max_cores_per_socket: z.number().int().nullable(),
  max_ram: z.number().int().nullable(),
  max_disk: z.number().int().nullable(),
  max_disk_total: z.number().int().nullable(),
  /** Snapshots a VM may have at once; absent in older answers. */
  max_snapshots: z.number().int().optional(),
  /** Hours after which a snapshot is flagged as too old. */
  snapshot_max_age_hours: z.number().int().optional(),
  /** Whether snapshots may include the VM's memory. */
  memory_snapshots: z.boolean().optional(),
});
export type LimitsView = z.infer<typeof limitsViewSchema>;

const optionalUuid = (description: string) =>
  z.uuid({ error: messages.uuid }).optional().meta({ description });

/** Filters every inventory list takes, with Waldur's pagination. */
export const inventoryListQueryFields = {
  ...paginationQuery,
  offering_uuid: optionalUuid('Only objects of this offering'),
  /**
   * The organisation the list is for (an order form of one of its projects): its assignments, or
   * the seed's defaults. The caller must belong to it (staff: any). Without it, a non-staff caller
   * sees the union over the organisations they belong to; staff see every object.
   */
  customer_uuid: optionalUuid('Only what is available to this organisation'),
  /**
   * Waldur's filter by service settings: a vSphere offering's are its vCenter integration, keyed
   * by the offering (its `scope_uuid`), so this is `offering_uuid` by Waldur's name.
   */
  settings_uuid: optionalUuid("Only objects of these service settings (the offering's scope_uuid)"),
  name: z.string().max(150).optional().meta({ description: 'Name contains (case-insensitive)' }),
};
