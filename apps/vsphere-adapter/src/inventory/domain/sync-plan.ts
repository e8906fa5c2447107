import { INVENTORY_KINDS, type InventoryCounts, type NetworkType, type SkippedObject } from '@app/contracts';
import type { InventorySnapshot, RemoteNetwork } from '../../vcenter/ports/inventory-source.port';
import { bytesToMb } from './datastore-size';
import { diffInventory, type InventoryDiff } from './inventory-diff';
import { basicModeTemplateProblem, readTemplateDetails, type TemplateHardware } from './template-details';

/** A stored object as the planner compares it. */
export interface StoredObject {
  readonly uuid: string;
  readonly backendId: string;
  readonly name: string;
  readonly position: number;
}
export interface StoredNetwork extends StoredObject {
  readonly type: NetworkType;
}
export interface StoredDatastore extends StoredObject {
  readonly type: string;
  readonly capacity: number | null;
  readonly freeSpace: number | null;
}
export interface StoredTemplate {
  readonly uuid: string;
  readonly backendId: string;
  readonly name: string;
  readonly description: string;
  readonly guestOs: string;
  readonly cores: number;
  readonly coresPerSocket: number;
  readonly ram: number;
  readonly disk: number;
  readonly nicCount: number;
  readonly itemModified: string | null;
}

export interface StoredInventory {
  readonly templates: readonly StoredTemplate[];
  readonly clusters: readonly StoredObject[];
  readonly networks: readonly StoredNetwork[];
  readonly datastores: readonly StoredDatastore[];
  readonly folders: readonly StoredObject[];
}

export type ObjectFields = Omit<StoredObject, 'uuid'>;
export type NetworkFields = Omit<StoredNetwork, 'uuid'>;
export type DatastoreFields = Omit<StoredDatastore, 'uuid'>;
export type TemplateFields = Omit<StoredTemplate, 'uuid'>;

/** What one synchronisation writes, and what it tells the provider. */
export interface SyncPlan {
  readonly templates: InventoryDiff<StoredTemplate, TemplateFields>;
  readonly clusters: InventoryDiff<StoredObject, ObjectFields>;
  readonly networks: InventoryDiff<StoredNetwork, NetworkFields>;
  readonly datastores: InventoryDiff<StoredDatastore, DatastoreFields>;
  readonly folders: InventoryDiff<StoredObject, ObjectFields>;
  /** Templates whose details were read from vCenter this time (their read time is renewed). */
  readonly templateDetailsRead: readonly string[];
  readonly skipped: readonly SkippedObject[];
  /** Objects that could not be read this time; their stored rows are kept as they were. */
  readonly errors: readonly string[];
  /** Objects held once the plan is applied. */
  readonly counts: InventoryCounts;
}

const NETWORK_TYPES: Record<RemoteNetwork['kind'], NetworkType> = {
  standard: 'STANDARD_PORTGROUP',
  distributed: 'DISTRIBUTED_PORTGROUP',
  opaque: 'OPAQUE_NETWORK',
};

const sameObject = (a: ObjectFields, b: ObjectFields) => a.name === b.name && a.position === b.position;

function sameTemplate(a: TemplateFields, b: TemplateFields): boolean {
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.guestOs === b.guestOs &&
    a.cores === b.cores &&
    a.coresPerSocket === b.coresPerSocket &&
    a.ram === b.ram &&
    a.disk === b.disk &&
    a.nicCount === b.nicCount &&
    a.itemModified === b.itemModified
  );
}

function heldAfter<E extends { backendId: string }, F>(
  diff: InventoryDiff<E, F & { backendId: string }>,
  stored: readonly E[],
  keep: ReadonlySet<string>,
): number {
  const kept = stored.filter((e) => keep.has(e.backendId)).length;
  return diff.create.length + diff.update.length + diff.unchanged + kept;
}

/**
 * Compares what vCenter holds with what is stored and decides every change, skip and kept row of one
 * synchronisation. Templates: empty, skeleton or incomplete details are skipped with the reason, so
 * is one with other than one NIC in basic mode, and an unreadable one keeps its row. Datastores:
 * an absurd size skips only that datastore (its row kept). Uplink port groups are skipped. Skipped
 * objects come sorted by kind and name. Pure.
 */
export function planSync(
  stored: StoredInventory,
  snapshot: InventorySnapshot,
  options: { basicMode: boolean },
): SyncPlan {
  const skipped: SkippedObject[] = [];
  const errors: string[] = [];
  const skip = (kind: SkippedObject['kind'], backendId: string, name: string, reason: string) =>
    skipped.push({ kind, backend_id: backendId, name, reason });

  // Templates.
  const storedTemplates = new Map(stored.templates.map((t) => [t.backendId, t]));
  const keepTemplates = new Set<string>();
  const templates: TemplateFields[] = [];
  const templateDetailsRead: string[] = [];
  for (const error of snapshot.templateErrors) {
    keepTemplates.add(error.backendId);
    errors.push(`Library item ${error.backendId} could not be read: ${error.message}`);
  }
  for (const item of snapshot.templates) {
    let hardware: TemplateHardware;
    const previous = storedTemplates.get(item.backendId);
    if (item.details.status === 'error') {
      keepTemplates.add(item.backendId);
      errors.push(`Template "${item.name}" (${item.backendId}) could not be read: ${item.details.message}`);
      continue;
    } else if (item.details.status === 'unchanged') {
      if (previous === undefined) {
        errors.push(`Template "${item.name}" (${item.backendId}) was reported unchanged but is not stored.`);
        continue;
      }
      hardware = { ...previous, ramMiB: previous.ram, diskMiB: previous.disk };
    } else {
      const reading = readTemplateDetails(item.details.raw);
      if (!reading.usable) {
        skip('templates', item.backendId, item.name, reading.reason);
        continue;
      }
      hardware = reading.hardware;
      templateDetailsRead.push(item.backendId);
    }
    const basicProblem = options.basicMode ? basicModeTemplateProblem(hardware.nicCount) : undefined;
    if (basicProblem !== undefined) {
      skip('templates', item.backendId, item.name, basicProblem);
      continue;
    }
    templates.push({
      backendId: item.backendId,
      name: item.name,
      description: item.description,
      guestOs: hardware.guestOs,
      cores: hardware.cores,
      coresPerSocket: hardware.coresPerSocket,
      ram: hardware.ramMiB,
      disk: hardware.diskMiB,
      nicCount: hardware.nicCount,
      itemModified: item.lastModified ?? null,
    });
  }

  // Networks: every kind but a distributed switch's uplinks.
  const networks: NetworkFields[] = [];
  snapshot.networks.forEach((n, position) => {
    if (n.uplink)
      skip(
        'networks',
        n.backendId,
        n.name,
        'An uplink port group of a distributed switch: no VM can use it.',
      );
    else networks.push({ backendId: n.backendId, name: n.name, position, type: NETWORK_TYPES[n.kind] });
  });

  // Datastores: an absurd size skips that datastore only, and keeps what was stored for it.
  const keepDatastores = new Set<string>();
  const datastores: DatastoreFields[] = [];
  snapshot.datastores.forEach((d, position) => {
    const capacity = bytesToMb(d.capacityBytes);
    const freeSpace = bytesToMb(d.freeSpaceBytes);
    if (capacity === undefined || freeSpace === undefined) {
      keepDatastores.add(d.backendId);
      skip(
        'datastores',
        d.backendId,
        d.name,
        `vCenter reported an impossible size (capacity ${d.capacityBytes} bytes, free space ${d.freeSpaceBytes} bytes).`,
      );
      return;
    }
    datastores.push({ backendId: d.backendId, name: d.name, position, type: d.type, capacity, freeSpace });
  });

  const placed = (list: InventorySnapshot['clusters']): ObjectFields[] =>
    list.map((o, position) => ({ backendId: o.backendId, name: o.name, position }));

  const plan = {
    templates: diffInventory(stored.templates, templates, sameTemplate, keepTemplates),
    clusters: diffInventory(stored.clusters, placed(snapshot.clusters), sameObject),
    networks: diffInventory(stored.networks, networks, (a, b) => sameObject(a, b) && a.type === b.type),
    datastores: diffInventory(
      stored.datastores,
      datastores,
      (a, b) =>
        sameObject(a, b) && a.type === b.type && a.capacity === b.capacity && a.freeSpace === b.freeSpace,
      keepDatastores,
    ),
    folders: diffInventory(stored.folders, placed(snapshot.folders), sameObject),
  };
  // A stable order for people and tests: by kind, then name (vCenter lists in no set order).
  const kindOrder = (kind: SkippedObject['kind']) => INVENTORY_KINDS.indexOf(kind);
  skipped.sort(
    (a, b) =>
      kindOrder(a.kind) - kindOrder(b.kind) ||
      a.name.localeCompare(b.name) ||
      a.backend_id.localeCompare(b.backend_id),
  );
  return {
    ...plan,
    templateDetailsRead,
    skipped,
    errors,
    counts: {
      templates: heldAfter(plan.templates, stored.templates, keepTemplates),
      clusters: heldAfter(plan.clusters, stored.clusters, new Set()),
      networks: heldAfter(plan.networks, stored.networks, new Set()),
      datastores: heldAfter(plan.datastores, stored.datastores, keepDatastores),
      folders: heldAfter(plan.folders, stored.folders, new Set()),
    },
  };
}
