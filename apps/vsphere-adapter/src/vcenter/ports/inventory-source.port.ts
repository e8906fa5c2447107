import type { VcenterConnection } from '../../integration/domain/vcenter-connection';

/** A vCenter object as read: its managed object id and name. */
export interface RemoteObject {
  readonly backendId: string;
  readonly name: string;
}

export interface RemoteNetwork extends RemoteObject {
  readonly kind: 'standard' | 'distributed' | 'opaque';
  /** A distributed switch's uplink port group: no VM can be attached to it. */
  readonly uplink: boolean;
}

/** Sizes in bytes, as vCenter reports them (may be -1 or absurd: the planner decides). */
export interface RemoteDatastore extends RemoteObject {
  readonly type: string;
  readonly capacityBytes: number;
  readonly freeSpaceBytes: number;
}

/** The details of one vm-template item: read now (raw JSON), unchanged since `item_modified`, or unreadable. */
export type RemoteTemplateDetails =
  | { readonly status: 'read'; readonly raw: unknown }
  | { readonly status: 'unchanged' }
  | { readonly status: 'error'; readonly message: string };

/** A `vm-template` item of a Content Library. */
export interface RemoteTemplateItem extends RemoteObject {
  readonly description: string;
  /** vCenter's `last_modified_time` of the item, when it gave one. */
  readonly lastModified?: string;
  readonly details: RemoteTemplateDetails;
}

/** An item that could not be read at all this time (its stored row, if any, is kept). */
export interface RemoteReadError {
  readonly backendId: string;
  readonly message: string;
}

/** Everything one synchronisation reads from vCenter. */
export interface InventorySnapshot {
  readonly clusters: readonly RemoteObject[];
  readonly networks: readonly RemoteNetwork[];
  readonly datastores: readonly RemoteDatastore[];
  readonly folders: readonly RemoteObject[];
  readonly templates: readonly RemoteTemplateItem[];
  readonly templateErrors: readonly RemoteReadError[];
}

export interface InventoryReadOptions {
  readonly signal: AbortSignal;
  /** Per vCenter call. */
  readonly callTimeoutMs: number;
  /** Item id → the `last_modified_time` its stored details were read at: such details are not read again. */
  readonly knownTemplates: ReadonlyMap<string, string>;
}

/**
 * Reads an offering's vCenter inventory: clusters, networks, datastores, VM folders (vim25) and the
 * vm-template items of every Content Library the account can read (REST). Throws when vCenter cannot
 * be reached or refuses the credentials; one unreadable template item is reported, not thrown.
 */
export interface InventorySource {
  read(connection: VcenterConnection, options: InventoryReadOptions): Promise<InventorySnapshot>;
}

export const INVENTORY_SOURCE = Symbol('InventorySource');
