import { z } from 'zod';

// The shapes of vCenter 8's `/api` answers the client reads, as runtime schemas (one source of
// truth for the TypeScript types). Unknown fields are kept (`loose`): vCenter adds fields over
// versions and the client must not break on them.

/** A list of identifiers (`GET /api/content/library`, `.../item?library_id=`). */
export const IdListSchema = z.array(z.string());

/** An identifier (create answers, the deployed VM's moref value). */
export const IdSchema = z.string().min(1);

/** content.LibraryModel (subset). */
export const LibraryModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string().optional(),
    description: z.string().optional(),
    creation_time: z.string().optional(),
    last_modified_time: z.string().optional(),
    storage_backings: z
      .array(z.object({ type: z.string(), datastore_id: z.string().optional() }).loose())
      .optional(),
  })
  .loose();
/** content.LibraryModel (subset). */
export type LibraryModel = z.infer<typeof LibraryModelSchema>;

/** content.library.ItemModel (subset); `type` is e.g. `vm-template`, `ovf`, `iso`. */
export const LibraryItemModelSchema = z
  .object({
    id: z.string(),
    library_id: z.string(),
    name: z.string(),
    type: z.string().optional(),
    description: z.string().optional(),
    creation_time: z.string().optional(),
    last_modified_time: z.string().optional(),
  })
  .loose();
/** content.library.ItemModel (subset). */
export type LibraryItemModel = z.infer<typeof LibraryItemModelSchema>;

const DiskStorageSchema = z
  .object({
    datastore: z.string().optional(),
    storage_policy: z.string().optional(),
  })
  .loose();

/** vcenter.vm_template.LibraryItems.Info: a vm-template item's hardware and storage. */
export const VmTemplateInfoSchema = z
  .object({
    guest_OS: z.string(),
    cpu: z.object({ count: z.number().int(), cores_per_socket: z.number().int() }).loose(),
    memory: z.object({ size_MiB: z.number().int() }).loose(),
    vm_home_storage: DiskStorageSchema,
    /** Disk key → capacity (bytes) and storage. */
    disks: z
      .record(
        z.string(),
        z.object({ capacity: z.number().optional(), disk_storage: DiskStorageSchema }).loose(),
      )
      .default({}),
    /** NIC key → backing type (STANDARD_PORTGROUP, DISTRIBUTED_PORTGROUP, OPAQUE_NETWORK, ...) and network. */
    nics: z
      .record(
        z.string(),
        z
          .object({
            backing_type: z.string(),
            mac_type: z.string().optional(),
            network: z.string().optional(),
          })
          .loose(),
      )
      .default({}),
    vm_template: z.string().optional(),
  })
  .loose();
/** vcenter.vm_template.LibraryItems.Info. */
export type VmTemplateInfo = z.infer<typeof VmTemplateInfoSchema>;

/** Where a VM or template goes (vcenter.vm_template.LibraryItems.*PlacementSpec). Ids are moref values. */
export interface VmTemplatePlacement {
  readonly folder?: string;
  readonly resource_pool?: string;
  readonly host?: string;
  readonly cluster?: string;
}

/**
 * Where a deployed VM goes. vCenter 8 requires the folder ("This field is currently required",
 * DeployPlacementSpec): a deploy without one is refused with INVALID_ARGUMENT and creates nothing.
 */
export interface VmTemplateDeployPlacement extends VmTemplatePlacement {
  readonly folder: string;
}

/** Datastore (moref value) for the VM home or the disks. */
export interface VmTemplateStorage {
  readonly datastore?: string;
  readonly storage_policy?: {
    readonly type: 'USE_SPECIFIED_POLICY' | 'USE_SOURCE_POLICY';
    readonly policy?: string;
  };
}

/** vcenter.vm_template.LibraryItems.CreateSpec: publish a VM as a vm-template item. */
export interface VmTemplateCreateSpec {
  readonly source_vm: string;
  readonly name: string;
  readonly library: string;
  readonly description?: string;
  readonly placement?: VmTemplatePlacement;
  readonly vm_home_storage?: VmTemplateStorage;
  readonly disk_storage?: VmTemplateStorage;
}

/** vcenter.vm_template.LibraryItems.HardwareCustomizationSpec (the parts used). */
export interface VmTemplateHardwareCustomization {
  readonly cpu_update?: { readonly num_cpus?: number; readonly num_cores_per_socket?: number };
  readonly memory_update?: { readonly memory?: number };
  /** Template NIC key → the network (moref value) to attach it to. */
  readonly nics?: Readonly<Record<string, { readonly network?: string }>>;
}

/** vcenter.vm_template.LibraryItems.DeploySpec. */
export interface VmTemplateDeploySpec {
  readonly name: string;
  readonly description?: string;
  /** folder, and cluster or resource_pool (vCenter derives the pool of a cluster), host optional. */
  readonly placement: VmTemplateDeployPlacement;
  readonly disk_storage?: VmTemplateStorage;
  readonly vm_home_storage?: VmTemplateStorage;
  readonly hardware_customization?: VmTemplateHardwareCustomization;
  readonly powered_on?: boolean;
}

/** content.LibraryModel create spec of a local library on one datastore. */
export interface LocalLibraryCreateSpec {
  readonly name: string;
  readonly description?: string;
  readonly storage_backings: readonly { readonly type: 'DATASTORE'; readonly datastore_id: string }[];
}

/** Parses `json` with `schema`; a mismatch throws an Error listing the first problems. Pure. */
export function decodeWith<S extends z.ZodType>(schema: S): (json: unknown) => z.output<S> {
  return (json) => {
    const result = schema.safeParse(json);
    if (result.success) return result.data;
    throw new Error(
      result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
        .join('; '),
    );
  };
}
