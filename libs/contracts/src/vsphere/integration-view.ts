import { z } from 'zod';

/**
 * State of an offering's vCenter integration, as Waldur's service settings show it: CREATING until
 * the first synchronisation ends, then OK or ERRED (with `error_message`) after each one.
 */
export const INTEGRATION_STATES = ['CREATING', 'OK', 'ERRED'] as const;
export type IntegrationState = (typeof INTEGRATION_STATES)[number];

/** IDLE: nothing to do; SCHEDULED: requested, starts shortly; SYNCING: running (one more may be scheduled). */
export const SYNC_STATES = ['IDLE', 'SCHEDULED', 'SYNCING'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export const INVENTORY_KINDS = ['templates', 'clusters', 'networks', 'datastores', 'folders'] as const;
export type InventoryKind = (typeof INVENTORY_KINDS)[number];

/** How many objects of each kind the offering holds after the last successful synchronisation. */
export const inventoryCountsSchema = z.object({
  templates: z.number().int().nonnegative(),
  clusters: z.number().int().nonnegative(),
  networks: z.number().int().nonnegative(),
  datastores: z.number().int().nonnegative(),
  folders: z.number().int().nonnegative(),
});
export type InventoryCounts = z.infer<typeof inventoryCountsSchema>;

/** An object a synchronisation left out, and why (a template without hardware details, ...). */
export const skippedObjectSchema = z.object({
  kind: z.enum(INVENTORY_KINDS),
  backend_id: z.string(),
  name: z.string(),
  reason: z.string(),
});
export type SkippedObject = z.infer<typeof skippedObjectSchema>;

const timestamp = () => z.iso.datetime({ offset: true }).nullable();

/**
 * The integration as the provider sees it (`vsphere.integration.get`), and as every vSphere event
 * carries it. Never the password: only whether one is set.
 */
export const integrationViewSchema = z.object({
  offering_uuid: z.uuid(),
  backend_url: z.string(),
  username: z.string(),
  password_set: z.boolean(),
  default_cluster_label: z.string(),
  max_cpu: z.number().int().nullable(),
  max_ram: z.number().int().nullable(),
  max_disk: z.number().int().nullable(),
  max_disk_total: z.number().int().nullable(),
  max_cores_per_socket: z.number().int().nullable(),
  /** The snapshot limits (absent in older events): see service-attributes.ts. */
  max_snapshots: z.number().int().optional(),
  snapshot_max_age_hours: z.number().int().optional(),
  memory_snapshots: z.boolean().optional(),
  /** On unless the provider turned it off; off is also one of the `warnings`. */
  verify_ssl: z.boolean(),
  /** The CA certificate(s) trusted when verify_ssl is on (public material), or null. */
  ca_pem: z.string().nullable(),
  state: z.enum(INTEGRATION_STATES),
  /** Why the state is ERRED ("" otherwise): vCenter's own message where vCenter answered. */
  error_message: z.string(),
  sync_state: z.enum(SYNC_STATES),
  last_sync_started: timestamp(),
  last_sync_finished: timestamp(),
  last_sync_success: timestamp(),
  /** The error of the last synchronisation ("" when it succeeded). */
  last_sync_error: z.string(),
  /** Objects held after the last successful synchronisation. */
  counts: inventoryCountsSchema,
  /** What the last successful synchronisation left out, with the reasons. */
  skipped: z.array(skippedObjectSchema),
  /** The adapter runs in basic mode: one cluster, network, datastore and folder per organisation. */
  basic_mode: z.boolean(),
  /**
   * What weakens this connection and the provider should know, in words (e.g. verify_ssl off:
   * vCenter's certificate is not checked). Empty when nothing does; absent in older events.
   */
  warnings: z.array(z.string()).optional(),
  created: z.iso.datetime({ offset: true }),
  modified: z.iso.datetime({ offset: true }),
});
export type IntegrationView = z.infer<typeof integrationViewSchema>;
