import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { InventoryDiff } from '../domain/inventory-diff';
import type { StoredInventory, SyncPlan } from '../domain/sync-plan';
import { ClusterEntity } from '../entities/cluster.entity';
import { DatastoreEntity } from '../entities/datastore.entity';
import { FolderEntity } from '../entities/folder.entity';
import { NetworkEntity } from '../entities/network.entity';
import { TemplateEntity } from '../entities/template.entity';

type Stored = { uuid: string; backendId: string };

/** Reads what a synchronisation compares against and writes what it decided, in the caller's transaction. */
@Injectable()
export class InventoryWriterRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Everything stored for the offering, as the planner compares it. */
  async loadStored(offeringUuid: string): Promise<StoredInventory> {
    const manager = this.dataSource.manager;
    const where = { offeringUuid };
    const [templates, clusters, networks, datastores, folders] = await Promise.all([
      manager.getRepository(TemplateEntity).findBy(where),
      manager.getRepository(ClusterEntity).findBy(where),
      manager.getRepository(NetworkEntity).findBy(where),
      manager.getRepository(DatastoreEntity).findBy(where),
      manager.getRepository(FolderEntity).findBy(where),
    ]);
    return { templates, clusters, networks, datastores, folders };
  }

  /**
   * Item id → `item_modified` of the templates whose details were read less than `maxAgeMs` ago:
   * while the item is unchanged, their details are not read again.
   */
  async freshTemplateDetails(offeringUuid: string, maxAgeMs: number): Promise<Map<string, string>> {
    const rows: { backend_id: string; item_modified: string }[] = await this.dataSource.query(
      `SELECT "backend_id", "item_modified" FROM "vsphere"."templates"
       WHERE "offering_uuid" = $1 AND "item_modified" IS NOT NULL
         AND "details_read_at" > now() - make_interval(secs => $2::double precision / 1000)`,
      [offeringUuid, maxAgeMs],
    );
    return new Map(rows.map((row) => [row.backend_id, row.item_modified]));
  }

  /** Applies a synchronisation's plan: creates, updates and deletes of every kind. */
  async apply(tx: EntityManager, offeringUuid: string, plan: SyncPlan): Promise<void> {
    await this.applyDiff(tx, TemplateEntity, offeringUuid, plan.templates);
    await this.applyDiff(tx, ClusterEntity, offeringUuid, plan.clusters);
    await this.applyDiff(tx, NetworkEntity, offeringUuid, plan.networks);
    await this.applyDiff(tx, DatastoreEntity, offeringUuid, plan.datastores);
    await this.applyDiff(tx, FolderEntity, offeringUuid, plan.folders);
    if (plan.templateDetailsRead.length > 0) {
      await tx
        .getRepository(TemplateEntity)
        .update(
          { offeringUuid, backendId: In([...plan.templateDetailsRead]) },
          { detailsReadAt: new Date() },
        );
    }
  }

  private async applyDiff<E extends ObjectLiteral & Stored, F extends ObjectLiteral>(
    tx: EntityManager,
    entity: EntityTarget<E>,
    offeringUuid: string,
    diff: InventoryDiff<E, F & { backendId: string }>,
  ): Promise<void> {
    const repository = tx.getRepository(entity);
    const now = new Date();
    if (diff.remove.length > 0) await repository.delete(diff.remove.map((e) => e.uuid));
    for (const { existing, fresh } of diff.update)
      await repository.update(existing.uuid, { ...fresh, modified: now });
    if (diff.create.length > 0) {
      const rows = diff.create.map((fresh) => ({
        ...fresh,
        uuid: randomUUID(),
        offeringUuid,
        created: now,
        modified: now,
      }));
      // Bounded statements: one insert per 500 rows.
      for (let i = 0; i < rows.length; i += 500) await repository.insert(rows.slice(i, i + 500));
    }
  }
}
